import { type CurrentResource, type DesiredResource, planChanges, planFingerprint } from './declaration-plan';

const shop: DesiredResource = { kind: 'monitor', key: 'shop', spec: { name: 'Shop', url: 'https://shop.example/' } };
const hook: DesiredResource = {
  kind: 'alert_destination',
  key: 'ops',
  spec: { name: 'Ops', type: 'webhook', config: { url: 'https://hooks.example/T0/secret' } },
};
const managedShop: CurrentResource = {
  kind: 'monitor',
  id: 'm1',
  key: 'shop',
  spec: { name: 'Shop', url: 'https://shop.example/', interval_seconds: 300, expected_status: { min: 200, max: 399 } },
};

describe('planChanges', () => {
  it('creates what is declared and missing, destinations before the monitors that will name them', () => {
    expect(planChanges([shop, hook], [], { prune: false })).toEqual([
      {
        action: 'create',
        kind: 'alert_destination',
        key: 'ops',
        id: null,
        fields: [
          { field: 'name', before: null, after: 'Ops', secret: false },
          { field: 'type', before: null, after: 'webhook', secret: false },
          { field: 'config.url', before: null, after: null, secret: true },
        ],
      },
      {
        action: 'create',
        kind: 'monitor',
        key: 'shop',
        id: null,
        fields: [
          { field: 'name', before: null, after: 'Shop', secret: false },
          { field: 'url', before: null, after: 'https://shop.example/', secret: false },
        ],
      },
    ]);
  });

  it('changes nothing when the declared fields hold; a field the document leaves out is not compared', () => {
    expect(planChanges([shop], [managedShop], { prune: false })).toEqual([]);
  });

  it('names each changed field with its value before and after, nested objects field by field', () => {
    const desired = { ...shop, spec: { ...shop.spec, name: 'Store', expected_status: { min: 200, max: 299 } } };
    expect(planChanges([desired], [managedShop], { prune: false })).toEqual([
      {
        action: 'update',
        kind: 'monitor',
        key: 'shop',
        id: 'm1',
        fields: [
          { field: 'name', before: 'Shop', after: 'Store', secret: false },
          { field: 'expected_status.max', before: 399, after: 299, secret: false },
        ],
      },
    ]);
  });

  it('says a secret changed or not, never what it was or is', () => {
    const current: CurrentResource = { kind: 'alert_destination', id: 'd1', key: 'ops', spec: hook.spec };
    expect(planChanges([hook], [current], { prune: false })).toEqual([]);
    const rotated = { ...hook, spec: { ...hook.spec, config: { url: 'https://hooks.example/T0/other' } } };
    const [change] = planChanges([rotated], [current], { prune: false });
    expect(change.fields).toEqual([{ field: 'config.url', before: null, after: null, secret: true }]);
    expect(JSON.stringify(change)).not.toContain('hooks.example');
  });

  it('deletes a managed resource the document no longer names only with prune, and never an unmanaged one', () => {
    const unmanaged: CurrentResource = { kind: 'monitor', id: 'm2', key: null, spec: { name: 'By hand' } };
    const rule: CurrentResource = { kind: 'alert_rule', id: 'r1', key: 'shop/down', spec: { event: 'down' } };
    expect(planChanges([], [managedShop, unmanaged, rule], { prune: false })).toEqual([]);
    expect(planChanges([], [managedShop, unmanaged, rule], { prune: true })).toEqual([
      { action: 'delete', kind: 'alert_rule', key: 'shop/down', id: 'r1', fields: [] },
      { action: 'delete', kind: 'monitor', key: 'shop', id: 'm1', fields: [] },
    ]);
  });

  it('adopts an unmanaged resource named by its id: an update that gives it the key', () => {
    const byHand: CurrentResource = { ...managedShop, key: null };
    expect(planChanges([{ ...shop, adopts: 'm1' }], [byHand], { prune: true })).toEqual([
      {
        action: 'update',
        kind: 'monitor',
        key: 'shop',
        id: 'm1',
        fields: [{ field: 'declaration_key', before: null, after: 'shop', secret: false }],
      },
    ]);
  });
});

describe('planFingerprint', () => {
  const fingerprint = (current: CurrentResource[], prune = false) => planFingerprint([shop], current, { prune });

  it('is the same for the same document and workspace, whatever order the resources come in', () => {
    const other: CurrentResource = { kind: 'monitor', id: 'm0', key: 'other', spec: { name: 'Other' } };
    expect(fingerprint([managedShop, other])).toBe(fingerprint([other, managedShop]));
  });

  it('moves when a managed resource, the document or prune does, but not for a resource it cannot touch', () => {
    const before = fingerprint([managedShop]);
    expect(fingerprint([{ ...managedShop, spec: { ...managedShop.spec, name: 'Edited by hand' } }])).not.toBe(before);
    expect(fingerprint([managedShop], true)).not.toBe(before);
    expect(planFingerprint([{ ...shop, spec: { name: 'Store' } }], [managedShop], { prune: false })).not.toBe(before);
    expect(fingerprint([managedShop, { kind: 'monitor', id: 'm9', key: null, spec: { name: 'By hand' } }])).toBe(
      before,
    );
  });

  it('moves when a secret does, though it is computed over digests only', () => {
    const rotated = { ...hook, spec: { ...hook.spec, config: { url: 'https://hooks.example/T0/other' } } };
    expect(planFingerprint([hook], [], { prune: false })).not.toBe(planFingerprint([rotated], [], { prune: false }));
  });
});
