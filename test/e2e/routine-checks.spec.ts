import { Pool } from 'pg';
import type { MonitorStatus, RegionStatus } from '../../src/monitors/entities/monitor.entity';
import { RoutineCheckWriter, RULES_FINGERPRINT_SQL, type RoutineCheck } from '../../src/monitors/routine-check-writer';
import { ApiClient } from '../support/api-client';
import { createAccount, issueKey, type IssuedKey } from '../support/accounts';
import { startTestApp, type TestApp } from '../support/test-app';
import { TestSite } from '../support/test-site';

/**
 * Most checks change nothing but counts; they are written together, one statement for many. They must be recorded
 * exactly as a check recorded alone would be, and a check that would change anything must never be written that way.
 */
describe('routine checks', () => {
  let api: TestApp;
  let site: TestSite;
  let key: IssuedKey;
  // A pool: the helpers below read rows for many monitors at once, and one pg Client runs one query at a time.
  let database: Pool;
  let writer: RoutineCheckWriter;

  beforeAll(async () => {
    site = await new TestSite().start();
    site.set('/up', '<!doctype html><title>Up</title><p>Up and steady</p>');
    // No scheduled checks: the test makes every check itself.
    api = await startTestApp({ SCHEDULER_TICK_MS: '60000' });
    const owner = await createAccount(new ApiClient(api.baseUrl));
    key = await issueKey(owner, ['monitors:read', 'monitors:write', 'alerts:read', 'alerts:write']);
    database = new Pool({ connectionString: process.env.DATABASE_URL, max: 4 });
    writer = api.app.get(RoutineCheckWriter);
  });
  afterAll(async () => {
    await api.close();
    await site.stop();
    await database.end();
  });

  async function createMonitor(): Promise<string> {
    const created = await key.client.post('/monitors', { name: 'steady', url: `${site.origin}/up` });
    expect(created.status).toBe(201);
    return created.body.id as string;
  }

  async function monitorRow(id: string) {
    const { rows } = await database.query<{
      status: MonitorStatus;
      region_status: RegionStatus;
      regions: string[];
      content_hash: string | null;
      last_checked_at: Date | null;
      rules_fingerprint: string;
    }>(
      `select status, region_status, regions, content_hash, last_checked_at,
              ${RULES_FINGERPRINT_SQL} as rules_fingerprint
         from monitors m where id = $1`,
      [id],
    );
    return rows[0];
  }

  async function rollup(id: string): Promise<{ checks: number; passed: number; response_ms_sum: number }> {
    const { rows } = await database.query<{ checks: string; passed: string; response_ms_sum: string }>(
      `select coalesce(sum(checks), 0) as checks, coalesce(sum(passed), 0) as passed,
              coalesce(sum(response_ms_sum), 0) as response_ms_sum
         from monitor_check_rollups where monitor_id = $1`,
      [id],
    );
    return {
      checks: Number(rows[0].checks),
      passed: Number(rows[0].passed),
      response_ms_sum: Number(rows[0].response_ms_sum),
    };
  }

  /** A routine check of `id` as it stands now, at slot `scheduledFor`. */
  async function routineCheck(id: string, scheduledFor: Date, overrides: Partial<RoutineCheck> = {}) {
    const row = await monitorRow(id);
    return {
      monitorId: id,
      region: 'local',
      trigger: 'scheduled',
      scheduledFor,
      checkedAt: new Date(scheduledFor.getTime() + 5),
      ok: true,
      statusCode: 200,
      responseTimeMs: 12,
      failure: null,
      message: null,
      failedAssertions: null,
      contentHash: row.content_hash,
      certificate: null,
      maintenanceWindowId: null,
      heartbeat: null,
      seen: {
        heartbeatPingedAt: null,
        status: row.status,
        regionStatus: row.region_status,
        regions: row.regions,
        contentHash: row.content_hash,
        certificate: null,
        rulesFingerprint: row.rules_fingerprint,
      },
      ...overrides,
    } satisfies RoutineCheck;
  }

  it('checks through the API after the first are recorded like any other: a result each, counted once', async () => {
    const id = await createMonitor();
    for (let index = 0; index < 4; index += 1) {
      const run = await key.client.post(`/monitors/${id}/check`);
      expect(run.status).toBe(200);
    }
    const { rows } = await database.query<{ ok: boolean; response_time_ms: number }>(
      `select ok, response_time_ms from monitor_checks where monitor_id = $1`,
      [id],
    );
    expect(rows).toHaveLength(4);
    expect(await rollup(id)).toEqual({
      checks: 4,
      passed: 4,
      response_ms_sum: rows.reduce((sum, row) => sum + row.response_time_ms, 0),
    });
    const monitor = await monitorRow(id);
    expect(monitor.status).toBe('up');
    expect(monitor.region_status).toEqual({ local: 'up' });
    const latest = await database.query<{ checked_at: Date }>(
      `select max(checked_at) as checked_at from monitor_checks where monitor_id = $1`,
      [id],
    );
    expect(monitor.last_checked_at?.getTime()).toBe(latest.rows[0].checked_at.getTime());
  });

  it('writes many checks at once, each with its own id, and a slot only once', async () => {
    const ids = await Promise.all(Array.from({ length: 20 }, () => createMonitor()));
    await Promise.all(ids.map((id) => key.client.post(`/monitors/${id}/check`)));
    const before = await Promise.all(ids.map((id) => rollup(id)));
    const slot = new Date(Date.now() + 3_600_000);
    const checks = await Promise.all(
      ids.flatMap((id) => [0, 1, 2].map((n) => routineCheck(id, new Date(slot.getTime() + n * 1000)))),
    );
    const written = await Promise.all(checks.map((check) => writer.write(check)));
    expect(written.every((checkId) => typeof checkId === 'string')).toBe(true);
    expect(new Set(written).size).toBe(60);
    for (const [index, id] of ids.entries()) {
      expect((await rollup(id)).checks).toBe(before[index].checks + 3);
    }
    // The same slot again (a retried job): not written twice, so the recorder looks up what is recorded.
    expect(await writer.write(checks[0])).toBeNull();
    expect((await rollup(ids[0])).checks).toBe(before[0].checks + 3);
  });

  it('refuses only the check PostgreSQL refuses: the others of its batch are written', async () => {
    const [good, bad] = await Promise.all([createMonitor(), createMonitor()]);
    const slot = new Date(Date.now() + 7_200_000);
    // A response time beyond the integer column: the statement fails as a whole.
    const overflowing = await routineCheck(bad, slot, { responseTimeMs: 2 ** 31 });
    const [written, refused] = await Promise.allSettled([
      writer.write(await routineCheck(good, slot)),
      writer.write(overflowing),
    ]);
    expect(written).toMatchObject({ status: 'fulfilled', value: expect.any(String) });
    expect(refused.status).toBe('rejected');
    const { rows } = await database.query(`select 1 from monitor_checks where monitor_id = $1 and scheduled_for = $2`, [
      bad,
      slot,
    ]);
    expect(rows).toHaveLength(0);
  });

  it('writes nothing when the monitor changed since the check read it', async () => {
    const id = await createMonitor();
    await key.client.post(`/monitors/${id}/check`);
    const slot = new Date(Date.now() + 7_200_000);
    const fresh = await routineCheck(id, slot);
    const stale = {
      ...fresh,
      seen: { ...fresh.seen, status: 'down' as const, regionStatus: { local: 'down' as const }, contentHash: null },
    };
    const before = await rollup(id);
    expect(await writer.write(stale)).toBeNull();
    expect(await rollup(id)).toEqual(before);
    const { rows } = await database.query(`select 1 from monitor_checks where monitor_id = $1 and scheduled_for = $2`, [
      id,
      slot,
    ]);
    expect(rows).toHaveLength(0);
  });

  async function hook(): Promise<string> {
    const destination = await key.client.post('/alert-destinations', {
      name: 'hook',
      type: 'webhook',
      config: { url: `${site.origin}/hook` },
    });
    expect(destination.status).toBe(201);
    return destination.body.id as string;
  }

  it('writes nothing when the monitor’s alert rules changed since the check read them', async () => {
    const id = await createMonitor();
    await key.client.post(`/monitors/${id}/check`);
    const slot = new Date(Date.now() + 10_800_000);
    const read = await routineCheck(id, slot);
    const rule = await key.client.post(`/monitors/${id}/rules`, { event: 'down', destination_ids: [await hook()] });
    expect(rule.status).toBe(201);
    const before = await rollup(id);
    // Decided on the rules as they were: the guard refuses it, and the recorder records it the full way.
    expect(await writer.write(read)).toBeNull();
    expect(await rollup(id)).toEqual(before);
    // Read again, with the rule: written.
    expect(await writer.write(await routineCheck(id, slot))).toEqual(expect.any(String));
    // A rule's incident moving (as another region's check would move it) fails the guard too.
    const later = await routineCheck(id, new Date(slot.getTime() + 1000));
    await database.query(`update alert_rules set streaks = '{"local": 1}', state = 'pending' where id = $1`, [
      rule.body.id,
    ]);
    expect(await writer.write(later)).toBeNull();
  });

  it('records the full way a check that moves only an alert rule, so the rule moves', async () => {
    site.set('/broken', { status: 500, html: 'down' });
    const created = await key.client.post('/monitors', { name: 'broken', url: `${site.origin}/broken` });
    const id = created.body.id as string;
    const rule = await key.client.post(`/monitors/${id}/rules`, {
      event: 'down',
      destination_ids: [await hook()],
      confirm: { consecutive_failures: 3 },
    });
    expect(rule.status).toBe(201);
    const ruleRow = async () =>
      (
        await database.query<{ state: string; streaks: Record<string, number> }>(
          `select state, streaks from alert_rules where id = $1`,
          [rule.body.id],
        )
      ).rows[0];
    // The first failure moves the monitor's status; the next ones move nothing but the rule's streak.
    for (const [streak, state] of [
      [1, 'pending'],
      [2, 'pending'],
      [3, 'firing'],
    ] as const) {
      expect((await key.client.post(`/monitors/${id}/check`)).status).toBe(200);
      expect((await monitorRow(id)).status).toBe('down');
      expect(await ruleRow()).toEqual({ state, streaks: { local: streak } });
    }
    expect((await rollup(id)).checks).toBe(3);
  });
});
