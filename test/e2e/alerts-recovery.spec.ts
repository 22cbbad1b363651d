import { ApiClient } from '../support/api-client';
import { createAccount, issueKey, signInAsAdmin } from '../support/accounts';
import { startTestApp, type TestApp } from '../support/test-app';
import { page, TestSite } from '../support/test-site';
import { startWorkerProcess } from '../support/worker-process';
import { Receiver, sleep, until } from './alerts-receiver';

/** A claim lapses this long after its worker stopped renewing it. */
const CLAIM_MS = 2000;

/** An alert whose worker dies before the receiver has it is sent by the next worker, and arrives once. */
describe('alerts survive a worker killed between the state change and the send', () => {
  let api: TestApp;
  let site: TestSite;
  let receiver: Receiver;

  beforeAll(async () => {
    site = await new TestSite().start();
    receiver = await new Receiver().start();
    // Only an API: the worker processes are started, and killed, by the test.
    api = await startTestApp({ ROLE: 'api' });
  });
  afterAll(async () => {
    await api.close();
    await site.stop();
    await receiver.stop();
  });

  it('a worker killed while its attempt is unanswered leaves it to the next worker; the alert arrives once', async () => {
    const owner = await createAccount(new ApiClient(api.baseUrl));
    const key = await issueKey(owner, ['monitors:read', 'monitors:write', 'alerts:write', 'webhooks:read']);
    const admin = await signInAsAdmin(new ApiClient(api.baseUrl));
    await admin.put(`/admin/api-keys/${key.id}/rate-limit`, { requests_per_minute: 100_000 });
    const hook = await key.client.post('/alert-destinations', {
      name: 'Ops',
      type: 'webhook',
      config: { url: `${receiver.origin}/ops` },
    });
    site.set('/shop', page());
    const monitor = (await key.client.post('/monitors', { name: 'Shop', url: `${site.origin}/shop` })).body;
    await key.client.post(`/monitors/${monitor.id}/rules`, { event: 'down', destination_ids: [hook.body.id] });

    // The receiver sits on whatever reaches it while the first worker lives: that worker dies mid-attempt.
    let firstWorkerAlive = true;
    receiver.answerWith('/ops', () => (firstWorkerAlive ? 'hold' : 200));
    const doomed = startWorkerProcess({ JOB_LOCK_MS: String(CLAIM_MS) });
    let next: TestApp | undefined;
    try {
      // The state change: the monitor goes down, its event is committed to the outbox with the check.
      site.set('/shop', { status: 500, html: 'down' });
      expect((await key.client.post(`/monitors/${monitor.id}/check`)).status).toBe(200);
      const [held] = await until(
        'the first worker to relay, claim and send the alert',
        () => (receiver.at('/ops').length ? receiver.at('/ops') : undefined),
        // A worker process compiles the service on start: slow on a busy machine.
        90_000,
      ).catch((error: Error) => {
        throw new Error(`${error.message}\n${doomed.output()}`);
      });
      const delivery = (await key.client.get('/webhook-deliveries')).body.data[0];
      expect(delivery).toMatchObject({ status: 'pending', attempts: [] });

      doomed.kill();
      firstWorkerAlive = false;
      next = await startTestApp({ ROLE: 'worker', JOB_LOCK_MS: String(CLAIM_MS) });
      const [delivered] = await until('the next worker to send the alert', () =>
        receiver.delivered('/ops').length ? receiver.delivered('/ops') : undefined,
      );
      expect(delivered.headers['webhook-id']).toBe(held.headers['webhook-id']);
      expect(JSON.parse(delivered.body)).toMatchObject({ type: 'monitor.down', data: { monitor: { id: monitor.id } } });
      // Room for a second copy to show up (claims lapse, the next worker ticks): there is none.
      await sleep(3 * CLAIM_MS);
      expect(receiver.delivered('/ops')).toHaveLength(1);
      expect(held.status).toBeUndefined();
      const log = (await key.client.get(`/webhook-deliveries/${delivery.id}`)).body;
      expect(log).toMatchObject({ status: 'succeeded', attempts: [{ response_status: 200 }] });
    } finally {
      doomed.kill();
      await next?.close();
    }
    // A worker process compiles the service on start: slow on a busy machine.
  }, 150_000);
});
