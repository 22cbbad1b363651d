import { randomUUID } from 'node:crypto';
import { Client } from 'pg';
import { EventNotifications } from '../../src/alerts/event-notifications';
import { loadConfig } from '../../src/config/app-config';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Workers relay when told that events were committed: the `events_notify` trigger and the listening connection. */
describe('event notifications', () => {
  let database: Client;
  let notifications: EventNotifications;
  let calls = 0;
  const workspaceId = randomUUID();

  /** Waits (up to 10 s) until the callback has been called `count` times in all. */
  async function calledTimes(count: number): Promise<void> {
    for (let waited = 0; calls < count; waited += 20) {
      if (waited > 10_000) throw new Error(`called ${calls} times, not ${count}`);
      await sleep(20);
    }
  }

  const recordEvent = () =>
    database.query(
      `insert into events (id, workspace_id, type, data, destination_ids, created_at) values ($1, $2, 'ping', '{}', '{}', now())`,
      [randomUUID(), workspaceId],
    );

  beforeAll(async () => {
    database = new Client({ connectionString: process.env.DATABASE_URL });
    await database.connect();
    await database.query(
      `insert into workspaces (id, name, plan, review_policy, created_at) values ($1, 'notified', 'free', '{}', now())`,
      [workspaceId],
    );
    notifications = new EventNotifications(loadConfig(process.env));
  });

  afterAll(async () => {
    await notifications.stop();
    // The events here are bare rows, not what a receiver of `ping` gets: not left for the file's event check.
    await database.query('delete from workspaces where id = $1', [workspaceId]);
    await database.end();
  });

  it('calls back once listening, at each commit that records events, and not for a rollback', async () => {
    notifications.listen(() => (calls += 1));
    await calledTimes(1);

    await recordEvent();
    await calledTimes(2);

    // Two statements in one transaction: one notification, at commit. A rolled-back one sends none.
    await database.query('begin');
    await recordEvent();
    await recordEvent();
    await database.query('commit');
    await database.query('begin');
    await recordEvent();
    await database.query('rollback');
    await recordEvent();
    await calledTimes(4);
    await sleep(200);
    expect(calls).toBe(4);
  });

  it('listens again after its connection is lost, and calls back when it does', async () => {
    const before = calls;
    const { rows } = await database.query<{ ended: boolean }>(
      `select pg_terminate_backend(pid) as ended from pg_stat_activity
        where datname = current_database() and query = 'listen vigil_events'`,
    );
    expect(rows).toEqual([{ ended: true }]);
    await calledTimes(before + 1);
    await recordEvent();
    await calledTimes(before + 2);
  });
});
