import type { AddressInfo } from 'node:net';
import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { Webhook } from 'standardwebhooks';
import { ApiClient } from '../support/api-client';
import { type Account, createAccount, issueKey, type IssuedKey, signInAsAdmin } from '../support/accounts';
import { startTestApp, type TestApp } from '../support/test-app';
import { page, TestSite } from '../support/test-site';
import { type Received, Receiver, sleep, until } from './alerts-receiver';

type Json = Record<string, any>;

/** Alerts through HTTP with a real worker: rules, the outbox, signed deliveries with retries, Slack and e-mail. */
describe('alerts: rules, destinations and a delivery log that loses nothing', () => {
  let service: TestApp;
  let site: TestSite;
  let receiver: Receiver;
  let smtp: SMTPServer;
  const mails: { to: string; subject: string; text: string }[] = [];
  let owner: Account;
  let key: IssuedKey;

  beforeAll(async () => {
    site = await new TestSite().start();
    receiver = await new Receiver().start();
    smtp = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      onData(stream, _session, callback) {
        simpleParser(stream)
          .then((mail) => {
            mails.push({
              to: String(mail.to && 'text' in mail.to ? mail.to.text : ''),
              subject: mail.subject ?? '',
              text: mail.text ?? '',
            });
            callback();
          })
          .catch(callback);
      },
    });
    await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
    const smtpPort = (smtp.server.address() as AddressInfo).port;
    service = await startTestApp({
      SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
      DELIVERY_RETRY_DELAYS_MS: '100,200,300',
      // Checks run only when a test asks: a scheduled first check (spread over a minute) would add a failure.
      SCHEDULER_TICK_MS: '60000',
    });
    const api = new ApiClient(service.baseUrl);
    owner = await createAccount(api);
    key = await issueKey(owner, [
      'monitors:read',
      'monitors:write',
      'alerts:read',
      'alerts:write',
      'webhooks:read',
      'webhooks:write',
    ]);
    const admin = await signInAsAdmin(api);
    await admin.put(`/admin/api-keys/${key.id}/rate-limit`, { requests_per_minute: 100_000 });
  });
  afterAll(async () => {
    await service.close();
    await site.stop();
    await receiver.stop();
    await new Promise<void>((resolve) => smtp.close(() => resolve()));
  });

  async function destination(body: Json): Promise<Json> {
    const created = await key.client.post('/alert-destinations', body);
    expect(created.status).toBe(201);
    return created.body;
  }

  async function monitorOf(path: string): Promise<string> {
    site.set(path, page());
    const created = await key.client.post('/monitors', { name: `Shop ${path}`, url: `${site.origin}${path}` });
    return created.body.id as string;
  }

  const check = async (monitorId: string) =>
    expect((await key.client.post(`/monitors/${monitorId}/check`)).status).toBe(200);
  const verify = (secret: string, received: Received) =>
    new Webhook(secret).verify(received.body, received.headers as Record<string, string>) as Json;

  it('alerts once, signed, after the confirmed failures; stays quiet while down; tells the recovery once', async () => {
    const hook = await destination({ name: 'Ops', type: 'webhook', config: { url: `${receiver.origin}/ops` } });
    expect(hook.secret).toMatch(/^whsec_/);
    const monitorId = await monitorOf('/down-up');
    const rule = await key.client.post(`/monitors/${monitorId}/rules`, {
      event: 'down',
      destination_ids: [hook.id],
      confirm: { consecutive_failures: 2 },
    });
    expect(rule.body).toMatchObject({
      state: 'ok',
      notify_recovery: true,
      confirm: { consecutive_failures: 2, min_regions: 1 },
    });

    await check(monitorId);
    site.set('/down-up', { status: 500, html: 'down' });
    await check(monitorId);
    expect((await key.client.get(`/monitors/${monitorId}/rules`)).body.data[0].state).toBe('pending');
    await sleep(600);
    expect(receiver.at('/ops')).toHaveLength(0);
    await check(monitorId);
    const [down] = await until('the down alert', () => (receiver.at('/ops').length ? receiver.at('/ops') : undefined));
    const event = verify(hook.secret as string, down);
    expect(event).toMatchObject({
      type: 'monitor.down',
      data: { monitor: { id: monitorId }, reason: 'down', status_code: 500 },
    });
    expect(down.headers['webhook-id']).toBe(event.id);
    expect((await key.client.get(`/monitors/${monitorId}/rules`)).body.data[0].state).toBe('firing');

    await check(monitorId);
    await check(monitorId);
    site.set('/down-up', page());
    await check(monitorId);
    const [, recovered] = await until('the recovery', () =>
      receiver.at('/ops').length >= 2 ? receiver.at('/ops') : undefined,
    );
    expect(verify(hook.secret as string, recovered).type).toBe('monitor.recovered');
    await check(monitorId);
    await sleep(600);
    expect(receiver.at('/ops').map((request) => JSON.parse(request.body).type)).toEqual([
      'monitor.down',
      'monitor.recovered',
    ]);
  });

  it('retries a failed delivery with the same webhook-id, and the log shows every attempt', async () => {
    receiver.answer('/flaky', 500, 503);
    const hook = await destination({
      name: 'Flaky',
      type: 'webhook',
      config: { url: `${receiver.origin}/flaky` },
      events: ['monitor.down'],
    });
    const monitorId = await monitorOf('/flaky-site');
    await key.client.post(`/monitors/${monitorId}/rules`, { event: 'down', destination_ids: [hook.id] });
    site.set('/flaky-site', { status: 404, html: 'gone' });
    await check(monitorId);
    const attempts = await until('three attempts', () =>
      receiver.at('/flaky').length >= 3 ? receiver.at('/flaky') : undefined,
    );
    expect(new Set(attempts.map((request) => request.headers['webhook-id'])).size).toBe(1);
    for (const attempt of attempts) verify(hook.secret as string, attempt);

    const log = await until('the delivery to succeed', async () => {
      const list = await key.client.get('/webhook-deliveries', { query: { destination_id: hook.id as string } });
      return list.body.data[0]?.status === 'succeeded' ? list.body.data : undefined;
    });
    // A rule and a subscription to the same event type make one delivery, not two.
    expect(log).toHaveLength(1);
    const delivery = (await key.client.get(`/webhook-deliveries/${log[0].id}`)).body;
    expect(delivery.attempts.map((attempt: Json) => attempt.response_status)).toEqual([500, 503, 200]);
    expect(delivery.attempts[0].response_body).toBe('answered 500');
    expect(delivery.request.headers['webhook-signature']).toMatch(/^v1,/);
    expect(JSON.stringify(delivery)).not.toContain(hook.secret);

    const again = await key.client.post(`/webhook-deliveries/${delivery.id}/redeliver`);
    expect(again.status).toBe(202);
    await until('the redelivery', () => (receiver.at('/flaky').length >= 4 ? true : undefined));
    expect(receiver.at('/flaky')[3].headers['webhook-id']).toBe(attempts[0].headers['webhook-id']);
  });

  it('a 410 disables the destination with the reason; enabling it again clears it', async () => {
    receiver.answer('/gone', 410);
    const hook = await destination({ name: 'Gone', type: 'webhook', config: { url: `${receiver.origin}/gone` } });
    const monitorId = await monitorOf('/gone-site');
    await key.client.post(`/monitors/${monitorId}/rules`, { event: 'down', destination_ids: [hook.id] });
    site.set('/gone-site', { status: 500, html: 'down' });
    await check(monitorId);
    const disabled = await until('the destination to be disabled', async () => {
      const current = (await key.client.get(`/alert-destinations/${hook.id}`)).body;
      return current.enabled ? undefined : current;
    });
    expect(disabled.disabled_reason).toContain('410');
    expect(receiver.at('/gone')).toHaveLength(1);
    const enabled = await key.client.patch(`/alert-destinations/${hook.id}`, { enabled: true });
    expect(enabled.body).toMatchObject({ enabled: true, disabled_reason: null });
  });

  it('Slack gets a readable line; e-mail goes through SMTP_URL; a test ping answers with the receiver’s reply', async () => {
    const slack = await destination({
      name: 'Slack',
      type: 'slack',
      config: { webhook_url: `${receiver.origin}/slack` },
    });
    const mail = await destination({ name: 'On call', type: 'email', config: { to: ['oncall@example.com'] } });
    expect([slack.secret, mail.secret]).toEqual([null, null]);
    const monitorId = await monitorOf('/chat');
    await key.client.post(`/monitors/${monitorId}/rules`, { event: 'down', destination_ids: [slack.id, mail.id] });
    site.set('/chat', { status: 502, html: 'bad gateway' });
    await check(monitorId);
    const [message] = await until('the Slack message', () =>
      receiver.at('/slack').length ? receiver.at('/slack') : undefined,
    );
    expect(JSON.parse(message.body).text).toMatch(/Shop \/chat .* is down/);
    const [sent] = await until('the e-mail', () => (mails.length ? mails : undefined));
    expect(sent).toMatchObject({ to: 'oncall@example.com', subject: '[Vigil] monitor.down' });
    expect(sent.text).toContain('is down');

    receiver.answer('/ping', 418);
    const hook = await destination({ name: 'Ping', type: 'webhook', config: { url: `${receiver.origin}/ping` } });
    const ping = await key.client.post(`/alert-destinations/${hook.id}/test`);
    expect(ping.body).toMatchObject({
      delivered: false,
      response_status: 418,
      response_body: 'answered 418',
      error: null,
    });
    expect(verify(hook.secret as string, receiver.at('/ping')[0]).type).toBe('ping');
  });

  it('after a rotation both secrets sign for a day, so receivers on either verify', async () => {
    const hook = await destination({
      name: 'Rotating',
      type: 'webhook',
      config: { url: `${receiver.origin}/rotating` },
    });
    const rotated = await key.client.post(`/alert-destinations/${hook.id}/rotate-secret`);
    expect(rotated.body.secret).toMatch(/^whsec_/);
    expect(rotated.body.secret).not.toBe(hook.secret);
    await key.client.post(`/alert-destinations/${hook.id}/test`);
    const [received] = receiver.at('/rotating');
    expect(String(received.headers['webhook-signature']).split(' ')).toHaveLength(2);
    expect(verify(hook.secret as string, received).type).toBe('ping');
    expect(verify(rotated.body.secret as string, received).type).toBe('ping');
    const slack = await destination({
      name: 'No secret',
      type: 'slack',
      config: { webhook_url: `${receiver.origin}/s` },
    });
    expect((await key.client.post(`/alert-destinations/${slack.id}/rotate-secret`)).status).toBe(409);
  });

  it('refuses bad input with a 400 naming the field, and another workspace’s alerts are a 404', async () => {
    const hook = await destination({ name: 'Mine', type: 'webhook', config: { url: `${receiver.origin}/mine` } });
    const monitorId = await monitorOf('/mine');
    const bad = [
      await key.client.post('/alert-destinations', {
        name: 'x',
        type: 'webhook',
        config: { url: 'ftp://example.com' },
      }),
      await key.client.post('/alert-destinations', {
        name: 'x',
        type: 'webhook',
        config: { webhook_url: 'https://example.com' },
      }),
      await key.client.post('/alert-destinations', { name: 'x', type: 'email', config: { to: ['not-an-address'] } }),
      await key.client.post('/alert-destinations', {
        name: 'x',
        type: 'webhook',
        config: { url: 'https://example.com' },
        events: ['monitor.exploded'],
      }),
      await key.client.post(`/monitors/${monitorId}/rules`, {
        event: 'down',
        destination_ids: ['00000000-0000-4000-8000-000000000000'],
      }),
      await key.client.post(`/monitors/${monitorId}/rules`, { event: 'response_time', destination_ids: [hook.id] }),
      await key.client.post(`/monitors/${monitorId}/rules`, {
        event: 'down',
        destination_ids: [hook.id],
        confirm: { consecutive_failures: 0 },
      }),
    ];
    expect(bad.map((response) => [response.status, response.body.errors?.[0]?.field])).toEqual([
      [400, 'config.url'],
      [400, 'config.webhook_url'],
      [400, 'config.to'],
      [400, 'events'],
      [400, 'destination_ids'],
      [400, 'threshold_ms'],
      [400, 'confirm.consecutive_failures'],
    ]);
    const stranger = await createAccount(new ApiClient(service.baseUrl));
    expect((await stranger.session.get(`/alert-destinations/${hook.id}`)).status).toBe(404);
    expect((await stranger.session.get(`/monitors/${monitorId}/rules`)).status).toBe(404);
    expect(
      (await stranger.session.post(`/monitors/${monitorId}/rules`, { event: 'down', destination_ids: [hook.id] }))
        .status,
    ).toBe(404);
  });

  it('deletes a rule: it is gone from the monitor, and deleting it again is a 404', async () => {
    const hook = await destination({ name: 'Gone', type: 'webhook', config: { url: `${receiver.origin}/gone` } });
    const monitorId = await monitorOf('/gone');
    const rule = await key.client.post(`/monitors/${monitorId}/rules`, { event: 'down', destination_ids: [hook.id] });
    const stranger = await createAccount(new ApiClient(service.baseUrl));
    expect((await stranger.session.delete(`/monitors/${monitorId}/rules/${rule.body.id}`)).status).toBe(404);
    expect((await key.client.delete(`/monitors/${monitorId}/rules/${rule.body.id}`)).status).toBe(204);
    expect((await key.client.get(`/monitors/${monitorId}/rules`)).body.data).toEqual([]);
    expect((await key.client.delete(`/monitors/${monitorId}/rules/${rule.body.id}`)).status).toBe(404);
  });
});

describe('alert destinations outside the test suite’s private-target allowance', () => {
  it('refuses a destination that is not a public address, and e-mail destinations without SMTP_URL', async () => {
    const service = await startTestApp({ ALLOW_PRIVATE_TARGETS: 'false', ROLE: 'api' });
    try {
      const owner = await createAccount(new ApiClient(service.baseUrl));
      const refused = await owner.session.post('/alert-destinations', {
        name: 'Internal',
        type: 'webhook',
        config: { url: 'http://127.0.0.1:8080/hook' },
      });
      expect([refused.status, refused.body.code]).toEqual([400, 'target_not_public']);
      const mail = await owner.session.post('/alert-destinations', {
        name: 'Mail',
        type: 'email',
        config: { to: ['a@example.com'] },
      });
      expect([mail.status, mail.body.errors[0].field]).toEqual([400, 'type']);
    } finally {
      await service.close();
    }
  });
});
