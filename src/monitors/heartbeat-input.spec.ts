import { ValidationFailed } from '../common/errors/domain-errors';
import type { CreateMonitorDto, UpdateMonitorDto } from './dto/monitor-requests.dto';
import { creationKind, updatedKind } from './heartbeat-input';
import type { HeartbeatSchedule } from './heartbeat-schedule';

/** The fields a refused request names. */
function refusedFields(run: () => unknown): string[] {
  try {
    run();
  } catch (error) {
    if (error instanceof ValidationFailed) return error.errors.map((item) => item.field);
    throw error;
  }
  throw new Error('the request was taken');
}

const nightly: HeartbeatSchedule = {
  intervalSeconds: null,
  cron: '0 3 * * *',
  timezone: 'Europe/Paris',
  graceSeconds: 900,
};
const heartbeat = { mode: 'heartbeat' as const, heartbeat: nightly };
const create = (body: Omit<CreateMonitorDto, 'name'>) => creationKind({ name: 'Job', ...body });
const update = (body: UpdateMonitorDto) => updatedKind(heartbeat, body);

describe('creationKind', () => {
  it('takes a heartbeat schedule with its grace (300 s when left out), and a page monitor without either', () => {
    expect(create({ mode: 'heartbeat', schedule: { cron: '0 3 * * *' }, grace_seconds: 60 })).toEqual({
      intervalSeconds: null,
      cron: '0 3 * * *',
      timezone: 'UTC',
      graceSeconds: 60,
    });
    expect(create({ mode: 'heartbeat', schedule: { interval_seconds: 3600 } })).toMatchObject({ graceSeconds: 300 });
    expect(create({ url: 'https://example.com/' })).toBeNull();
  });

  it('refuses, by field, a heartbeat without a schedule and heartbeat fields on a page monitor', () => {
    expect(refusedFields(() => create({ mode: 'heartbeat' }))).toEqual(['schedule']);
    expect(refusedFields(() => create({ mode: 'heartbeat', schedule: {} }))).toEqual(['schedule']);
    expect(
      refusedFields(() =>
        create({ url: 'https://example.com/', schedule: { interval_seconds: 60 }, grace_seconds: 0 }),
      ),
    ).toEqual(['schedule', 'grace_seconds']);
    expect(
      refusedFields(() => create({ mode: 'heartbeat', schedule: { interval_seconds: 60 }, keyword: 'x' })),
    ).toEqual(['keyword']);
  });
});

describe('updatedKind', () => {
  it('keeps what the request leaves out: the schedule for a new grace, the grace for a new schedule', () => {
    expect(update({ grace_seconds: 60 })).toEqual({ ...nightly, graceSeconds: 60 });
    expect(update({ schedule: { interval_seconds: 3600 } })).toEqual({
      intervalSeconds: 3600,
      cron: null,
      timezone: 'UTC',
      graceSeconds: 900,
    });
    expect(update({ name: 'Renamed' })).toBeNull();
  });

  it('refuses heartbeat fields on another monitor, and a change of kind', () => {
    const page = { mode: 'http' as const, heartbeat: null };
    expect(refusedFields(() => updatedKind(page, { grace_seconds: 60 }))).toEqual(['grace_seconds']);
    expect(refusedFields(() => updatedKind(page, { mode: 'heartbeat' }))).toEqual(['mode']);
    expect(refusedFields(() => update({ schedule: { interval_seconds: 60, timezone: 'UTC' } }))).toEqual([
      'schedule.timezone',
    ]);
  });
});
