import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client } from 'pg';
import { ApiClient } from '../support/api-client';
import { createAccount, issueKey } from '../support/accounts';
import { startTestApp, type TestApp } from '../support/test-app';
import { CHANGE_DETECTED_DATA } from '../support/events';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The outbox: an event committed with its state change is delivered exactly once, however many workers relay, and
 * also when no worker was running at the time (the process that made the change died right after its commit).
 */
describe('events committed to the outbox are delivered exactly once', () => {
  let api: TestApp;
  let receiver: Server;
  const received: string[] = [];

  beforeAll(async () => {
    receiver = createServer((request, response) => {
      request.resume();
      request.on('end', () => {
        received.push(String(request.headers['webhook-id']));
        response.writeHead(204).end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    // Only an API: nothing relays the outbox until the workers start below.
    api = await startTestApp({ ROLE: 'api' });
  });
  afterAll(async () => {
    await api.close();
    await new Promise((resolve) => receiver.close(resolve));
  });

  it('relays events that were committed while no worker ran, once each, with two workers racing for them', async () => {
    const owner = await createAccount(new ApiClient(api.baseUrl));
    const key = await issueKey(owner, ['alerts:write', 'webhooks:read']);
    const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
    const destination = await key.client.post('/alert-destinations', {
      name: 'Hook',
      type: 'webhook',
      config: { url },
      events: ['change.detected'],
    });
    expect(destination.status).toBe(201);

    // What a recorder's transaction leaves when its process dies right after the commit: events, not yet relayed.
    const events = Array.from({ length: 25 }, () => randomUUID());
    const database = new Client({ connectionString: api.config.databaseUrl });
    await database.connect();
    try {
      for (const id of events) {
        await database.query(
          `insert into events (id, workspace_id, type, data, destination_ids, created_at)
           values ($1, $2, 'change.detected', $3, '{}', now())`,
          [id, owner.workspaceId, CHANGE_DETECTED_DATA],
        );
      }
    } finally {
      await database.end();
    }
    await sleep(500);
    expect(received).toEqual([]);

    const workers = await Promise.all([startTestApp({ ROLE: 'worker' }), startTestApp({ ROLE: 'worker' })]);
    try {
      for (let waited = 0; received.length < events.length && waited < 20_000; waited += 100) await sleep(100);
      await sleep(1500); // room for a duplicate to show up
      expect([...received].sort()).toEqual([...events].sort());
      const log = await key.client.get('/webhook-deliveries', { query: { per_page: 100, status: 'succeeded' } });
      expect(log.body.pagination.total).toBe(events.length);
    } finally {
      await Promise.all(workers.map((worker) => worker.close()));
    }
  });
});
