import { coveredComponents, hearsOfMaintenance } from './subscriber-audience';

const components = [
  { id: 'c-checkout', name: 'Checkout', monitor_ids: ['m-api', 'm-pay'] },
  { id: 'c-blog', name: 'Blog', monitor_ids: ['m-blog'] },
  { id: 'c-empty', name: 'Docs', monitor_ids: [] },
];

describe('who hears of a maintenance', () => {
  it('finds the components whose monitors a window covers', () => {
    expect(coveredComponents(components, { allMonitors: false, monitorIds: ['m-pay'] }).map((c) => c.id)).toEqual([
      'c-checkout',
    ]);
    expect(coveredComponents(components, { allMonitors: true, monitorIds: [] }).map((c) => c.id)).toEqual([
      'c-checkout',
      'c-blog',
    ]);
  });

  it('tells the whole page’s subscribers of any covered component, and the others only of theirs', () => {
    const payments = { allMonitors: false, monitorIds: ['m-pay'] };
    expect(hearsOfMaintenance([], components, payments)).toBe(true);
    expect(hearsOfMaintenance(['c-checkout'], components, payments)).toBe(true);
    expect(hearsOfMaintenance(['c-blog'], components, payments)).toBe(false);
    expect(hearsOfMaintenance([], components, { allMonitors: false, monitorIds: ['m-elsewhere'] })).toBe(false);
  });
});
