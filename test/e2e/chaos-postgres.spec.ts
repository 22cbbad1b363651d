import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { Client } from 'pg';
import { ApiClient } from '../support/api-client';
import { createAccount, issueKey, type IssuedKey, signInAsAdmin } from '../support/accounts';
import { CrawlSite } from '../support/crawl-site';
import { PrivatePostgres } from '../support/private-postgres';
import { waitForCollection } from '../support/release-checks';
import { page } from '../support/test-site';
import { startWorkerProcess } from '../support/worker-process';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** The shortest interval a monitor may have: each monitor's slots come every 30 s, spread over the minute. */
const INTERVAL_SECONDS = 30;
const MONITORS = 24;
/**
 * The monitors' first slots are spread over a whole interval, so one falls due every 1.25 s from then on, whenever
 * the restart comes: over only part of it, a slow first capture could put the restart in the gap between rounds.
 */
const SPREAD_SECONDS = INTERVAL_SECONDS;
const PAGES = 6;
/** How long PostgreSQL stays down: longer than a job's own retries last (a check's 1 s, a capture's 2 s then 4 s). */
const OUTAGE_MS = 10_000;

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

async function until<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe().catch(() => undefined);
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(100);
  }
}

/**
 * The service's database restarted under it, as an operator's restart or a failover does: the service says it is
 * not ready while PostgreSQL is down, is ready again once it is back, without a restart of its own, and the work in
 * flight ends as if nothing happened. The PostgreSQL is this file's own cluster, so the suite's server is untouched.
 */
describe('PostgreSQL restarted while monitor checks and a release check run', () => {
  let postgres: PrivatePostgres;
  let service: ReturnType<typeof startWorkerProcess>;
  let baseUrl: string;
  let site: CrawlSite;
  let database: Client;
  let key: IssuedKey;

  beforeAll(async () => {
    postgres = await PrivatePostgres.create();
    site = await new CrawlSite().start();
    // Slow enough that checks are mid-flight, and captures mid-render, when the database goes.
    site.set('/up', { delayMs: 1500, headers: { 'content-type': 'text/html' }, body: '<title>Up</title><p>Up</p>' });
    for (let index = 0; index < PAGES; index += 1) {
      for (const side of ['prod', 'preview']) {
        site.set(`/${side}/page-${index}`, { headers: { 'content-type': 'text/html' }, body: page() });
      }
    }
    const port = await freePort();
    baseUrl = `http://127.0.0.1:${port}`;
    // The whole service (API, workers, scheduler) as one real process: an error the restart leaves unhandled would
    // end it, as it would in production. Its own start creates and migrates the database.
    service = startWorkerProcess({
      ROLE: 'all',
      PORT: String(port),
      DATABASE_URL: postgres.url('vigil_chaos'),
      MIGRATE_ON_START: 'true',
      SCHEDULER_TICK_MS: '100',
      LOG_LEVEL: 'warn',
    });
    // A worker process compiles the service on start: slow on a busy machine.
    await until(
      'the service to start',
      async () => ((await fetch(`${baseUrl}/health/ready`)).status === 200 ? true : undefined),
      90_000,
    ).catch((error: Error) => {
      throw new Error(`${error.message}\n${service.output()}`);
    });
    const person = await createAccount(new ApiClient(baseUrl));
    key = await issueKey(person, ['monitors:read', 'monitors:write']);
    const admin = await signInAsAdmin(new ApiClient(baseUrl));
    await admin.put(`/admin/api-keys/${key.id}/rate-limit`, { requests_per_minute: 100_000 });
    database = new Client({ connectionString: postgres.url('vigil_chaos') });
    await database.connect();
  }, 120_000);

  afterAll(async () => {
    service?.kill();
    await database?.end().catch(() => undefined);
    await site?.stop();
    await postgres?.destroy();
  });

  /** The service's log without the warnings every tick repeats while PostgreSQL is down. */
  const serviceLog = () =>
    service
      .output()
      .split('\n')
      .filter((line) => !/could not (enqueue due monitor checks|relay and claim deliveries)/.test(line))
      .join('\n');

  async function readiness(): Promise<{ status: number; body: { checks?: Record<string, string> } } | null> {
    try {
      const response = await fetch(`${baseUrl}/health/ready`, { signal: AbortSignal.timeout(5000) });
      return { status: response.status, body: (await response.json()) as { checks?: Record<string, string> } };
    } catch {
      return null;
    }
  }

  it('is not ready while it is down, recovers by itself, and loses or doubles no result', async () => {
    // Liveness all along: an exited process answers nothing, and nothing here would start another.
    const livenessFailures: string[] = [];
    let watching = true;
    const watcher = (async () => {
      while (watching) {
        try {
          const response = await fetch(`${baseUrl}/health`, { signal: AbortSignal.timeout(5000) });
          if (response.status !== 200) livenessFailures.push(`${new Date().toISOString()} ${response.status}`);
        } catch (error) {
          livenessFailures.push(`${new Date().toISOString()} ${(error as Error).message}`);
        }
        await sleep(250);
      }
    })();

    try {
      // Monitors whose slots fall due one every 1.25 s, from a second from now, through the restart.
      const createdSlots = new Map<string, number>();
      for (let index = 0; index < MONITORS; index += 1) {
        const created = await key.client.post('/monitors', {
          name: `chaos ${index}`,
          url: `${site.origin}/up`,
          interval_seconds: INTERVAL_SECONDS,
        });
        expect(created.status).toBe(201);
        createdSlots.set(created.body.id as string, Date.parse(created.body.next_check_at as string));
      }
      const monitorIds = [...createdSlots.keys()];
      // Under the rows' locks, so the running scheduler either claimed a creation slot before (it moved the slot on:
      // that slot is claimed too) or claims nothing until the new slots are set.
      const { rows: restaggered } = await database.query<{ id: string; before: Date; first: Date }>(
        `with old as (select id, next_check_at from monitors where id = any($1::uuid[]) for update)
         update monitors m
         set next_check_at = date_trunc('milliseconds', now() + interval '1 second'
           + make_interval(secs => $2::float8 * array_position($1::uuid[], m.id)))
         from old where m.id = old.id
         returning m.id, old.next_check_at as before, m.next_check_at as first`,
        [monitorIds, SPREAD_SECONDS / MONITORS],
      );
      const schedules = restaggered.map(({ id, before, first }) => ({
        id,
        first: first.getTime(),
        creationSlot: before.getTime() === createdSlots.get(id) ? null : createdSlots.get(id)!,
      }));

      const created = await key.client.post('/release-checks', {
        name: 'chaos',
        production_url: `${site.origin}/prod`,
        preview_url: `${site.origin}/preview`,
        request_key: `chaos-${Date.now()}`,
        pages: Array.from({ length: PAGES }, (_, index) => ({
          production_path: `/page-${index}`,
          preview_path: `/page-${index}`,
        })),
        viewports: ['desktop'],
      });
      expect(created.status).toBe(201);
      const checkId = created.body.id as string;

      // Mid-work: a capture is recorded and others are still to come; a check's request is under way.
      const sidesOf = async () => {
        const check = (await key.client.get(`/release-checks/${checkId}`)).body;
        return (check.artifacts as { production: { state: string }; preview: { state: string } }[]).flatMap(
          (artifact) => [artifact.production.state, artifact.preview.state],
        );
      };
      await until(
        'the first capture to be recorded',
        async () => ((await sidesOf()).some((state) => state !== 'pending') ? true : undefined),
        60_000,
      );
      await until(
        'a monitor check to be under way',
        () =>
          Promise.resolve(
            site.requests.some((request) => request.path === '/up' && Date.now() - request.startedAt < 1000)
              ? true
              : undefined,
          ),
        2 * INTERVAL_SECONDS * 1000,
      );
      const pendingAtStop = (await sidesOf()).filter((state) => state === 'pending').length;

      await database.end();
      const stoppedAt = Date.now();
      await postgres.stop();
      const notReady = await until(
        'the service to report not ready',
        async () => {
          const answer = await readiness();
          return answer?.status === 503 ? answer : undefined;
        },
        OUTAGE_MS,
      );
      expect(notReady.body).toEqual({ status: 'unavailable', checks: { postgres: 'down', redis: 'up' } });
      await sleep(Math.max(0, OUTAGE_MS - (Date.now() - stoppedAt)));
      // Still down, still saying so.
      expect((await readiness())?.status).toBe(503);
      await postgres.start();
      const restartedAt = Date.now();
      const ready = await until(
        'the service to report ready again',
        async () => {
          const answer = await readiness();
          return answer?.status === 200 ? answer : undefined;
        },
        15_000,
      );
      expect(ready.body).toEqual({ status: 'ok', checks: { postgres: 'up', redis: 'up' } });
      database = new Client({ connectionString: postgres.url('vigil_chaos') });
      await database.connect();

      // The release check completes with every side captured and every pair compared: nothing became missing.
      const check = await waitForCollection(key.client, checkId, 60_000);
      expect(check).toMatchObject({
        collection_status: 'completed',
        gate: 'pending',
        summary: { captured: PAGES, missing: 0 },
      });
      for (const artifact of check.artifacts) {
        expect(artifact).toMatchObject({
          state: 'compared',
          production: { state: 'captured' },
          preview: { state: 'captured' },
          comparison: { has_differences: false },
        });
      }

      // Every slot the scheduler claimed up to now gets a result within a bounded time. A monitor's claimed slots
      // are its creation slot if that was claimed, then its first slot and each one an interval on, up to the one
      // before its next_check_at (a slot claimed late by more than an interval would break the sequence). Each
      // monitor's first slot is claimed before this is taken.
      const nextRows = await until(
        'every first slot to be claimed',
        async () => {
          const { rows } = await database.query<{ id: string; next: Date }>(
            'select id, next_check_at as next from monitors where id = any($1::uuid[])',
            [monitorIds],
          );
          const firstOf = new Map(schedules.map(({ id, first }) => [id, first]));
          return rows.every(({ id, next }) => next.getTime() > firstOf.get(id)!) ? rows : undefined;
        },
        2 * INTERVAL_SECONDS * 1000,
      );
      const nextSlot = new Map(nextRows.map(({ id, next }) => [id, next.getTime()]));
      const claimed: string[] = [];
      for (const { id, first, creationSlot } of schedules) {
        const next = nextSlot.get(id)!;
        expect((next - first) % (INTERVAL_SECONDS * 1000)).toBe(0);
        if (creationSlot !== null) claimed.push(`${id} local ${creationSlot}`);
        for (let slot = first; slot < next; slot += INTERVAL_SECONDS * 1000) claimed.push(`${id} local ${slot}`);
      }
      const recordedUpTo = async (): Promise<string[]> => {
        const { rows } = await database.query<{ monitor_id: string; region: string; slot: string }>(
          `select monitor_id, region, (extract(epoch from scheduled_for) * 1000)::bigint::text as slot
           from monitor_checks where monitor_id = any($1::uuid[]) and trigger = 'scheduled'`,
          [monitorIds],
        );
        return rows
          .filter((row) => Number(row.slot) < nextSlot.get(row.monitor_id)!)
          .map((row) => `${row.monitor_id} ${row.region} ${row.slot}`);
      };
      const lost = (recorded: string[]) => claimed.filter((slot) => !recorded.includes(slot));
      const recorded = await until(
        'a result for every claimed slot',
        async () => {
          const found = await recordedUpTo();
          return lost(found).length === 0 ? found : undefined;
        },
        30_000,
      ).catch(async (error: Error) => {
        throw new Error(`${error.message}; lost: ${lost(await recordedUpTo()).join(', ')}\n${serviceLog()}`);
      });
      // Exactly the claimed slots, each once.
      expect(recorded.sort()).toEqual([...claimed].sort());
      const { rows: doubled } = await database.query(
        `select monitor_id, region, scheduled_for, count(*) from monitor_checks
         where monitor_id = any($1::uuid[]) group by 1, 2, 3 having count(*) > 1`,
        [monitorIds],
      );
      expect(doubled).toEqual([]);
      // The restart fell amid the work: checks were under way when PostgreSQL stopped, and slots fell due while it
      // was down; the release check still had sides to collect.
      const { rows: inFlight } = await database.query<{ count: number }>(
        `select count(*)::int as count from monitor_checks where monitor_id = any($1::uuid[])
         and checked_at < $2 and checked_at + make_interval(secs => response_time_ms / 1000.0) > $2`,
        [monitorIds, new Date(stoppedAt)],
      );
      expect(inFlight[0].count).toBeGreaterThan(0);
      const slots = claimed.map((slot) => Number(slot.split(' ')[2]));
      expect(slots.filter((slot) => slot >= stoppedAt && slot <= restartedAt).length).toBeGreaterThan(0);
      expect(pendingAtStop).toBeGreaterThan(0);
    } finally {
      watching = false;
      await watcher;
    }
    expect(livenessFailures).toEqual([]);
  }, 110_000);
});
