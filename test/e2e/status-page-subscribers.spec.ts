import type { AddressInfo } from 'node:net';
import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { ApiClient } from '../support/api-client';
import { createAccount, issueKey, type IssuedKey, signInAsAdmin } from '../support/accounts';
import { startTestApp, type TestApp } from '../support/test-app';
import { Receiver, sleep, until } from './alerts-receiver';

type Json = Record<string, any>;
interface Mail {
  to: string;
  subject: string;
  text: string;
  /** The raw header lines, e.g. `List-Unsubscribe-Post: List-Unsubscribe=One-Click`. */
  headerLines: string[];
}

/**
 * Status-page subscribers (issue #29): an e-mail address confirms (double opt-in), hears of an incident's updates and
 * of maintenance on the components it follows, unsubscribes with one click (RFC 8058) and hears nothing after; a
 * webhook follows one component; subscribing is public, rate limited and never tells who else subscribed. Real SMTP
 * server, receiver, worker, PostgreSQL and Redis.
 */
describe('status-page subscribers', () => {
  let service: TestApp;
  let receiver: Receiver;
  let smtp: SMTPServer;
  const mails: Mail[] = [];
  let key: IssuedKey;
  let pageId = '';
  const slug = `shop-${Date.now().toString(36)}`;
  const monitors: Record<'checkout' | 'blog', string> = { checkout: '', blog: '' };
  let components: Json[] = [];

  beforeAll(async () => {
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
              headerLines: mail.headerLines.map((header) => header.line),
            });
            callback();
          })
          .catch(callback);
      },
    });
    await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
    service = await startTestApp({
      SMTP_URL: `smtp://127.0.0.1:${(smtp.server.address() as AddressInfo).port}`,
      ALLOW_PRIVATE_TARGETS: 'true',
      STATUS_SUBSCRIPTIONS_PER_MINUTE: '20',
      // Links in e-mails are absolute on PUBLIC_URL; the test follows them to the service it started.
      PUBLIC_URL: 'https://status.example.test',
    });
    key = await issueKey(await createAccount(new ApiClient(service.baseUrl)), ['monitors:read', 'monitors:write']);
    await (
      await signInAsAdmin(new ApiClient(service.baseUrl))
    ).put(`/admin/api-keys/${key.id}/rate-limit`, { requests_per_minute: 100_000 });
    for (const name of ['checkout', 'blog'] as const) {
      const created = await key.client.post('/monitors', {
        name,
        mode: 'heartbeat',
        schedule: { interval_seconds: 86_400 },
      });
      monitors[name] = created.body.id;
    }
    const page = await key.client.post('/status-pages', {
      slug,
      title: 'Example Shop',
      published: true,
      components: [
        { name: 'Checkout', monitor_ids: [monitors.checkout] },
        { name: 'Blog', monitor_ids: [monitors.blog] },
      ],
    });
    pageId = page.body.id;
    components = (await publicApi().get(`/status-pages/public/${slug}`)).body.components;
  });
  afterAll(async () => {
    await service?.close();
    await receiver?.stop();
    await new Promise<void>((resolve) => smtp.close(() => resolve()));
  });

  const publicApi = () => new ApiClient(service.baseUrl);
  const subscribe = (body: Json) => publicApi().post(`/status-pages/public/${slug}/subscribers`, body);
  const mailsTo = (address: string) => mails.filter((mail) => mail.to.includes(address));
  const linkIn = (mail: Mail, purpose: 'confirm' | 'unsubscribe') => {
    const path = new RegExp(`https://status\\.example\\.test(/status/${slug}/${purpose}\\?token=[^\\s]+)`).exec(
      mail.text,
    )?.[1];
    expect(path).toBeDefined();
    return `${service.baseUrl}${path}`;
  };
  const hooks = () =>
    receiver.requests
      .filter((request) => request.path === '/status')
      .map((request) => JSON.parse(request.body) as Json);

  it('confirms an address, tells it of incidents and maintenance, and nothing after a one-click unsubscribe', async () => {
    expect((await subscribe({ email: 'Alice@Example.com' })).body).toEqual({ status: 'confirmation_sent' });
    const confirmation = await until('the confirmation', () => mailsTo('alice@example.com')[0]);
    expect(confirmation.subject).toBe('Confirm your subscription to Example Shop');
    const confirmUrl = linkIn(confirmation, 'confirm');

    // Not confirmed yet: an incident opened now is not told.
    const incident = await key.client.post(`/status-pages/${pageId}/incidents`, {
      title: 'Payments fail',
      impact: 'major',
      message: 'Card payments fail for some customers.',
    });
    expect(incident.status).toBe(201);
    // Following the link shows a button (a scanner following it confirms nothing); the button confirms.
    const confirmPage = await fetch(confirmUrl);
    expect(await confirmPage.text()).toContain('<button type="submit">Confirm</button>');
    expect((await key.client.get(`/status-pages/${pageId}/subscribers`)).body.data[0].confirmed).toBe(false);
    const confirmed = await fetch(confirmUrl, { method: 'POST' });
    expect(confirmed.status).toBe(200);
    expect(await confirmed.text()).toContain('Subscribed');
    expect((await key.client.get(`/status-pages/${pageId}/subscribers`)).body.data).toEqual([
      expect.objectContaining({ kind: 'email', email: 'alice@example.com', component_ids: [], confirmed: true }),
    ]);

    await key.client.patch(`/status-pages/${pageId}/incidents/${incident.body.id}`, {
      status: 'identified',
      message: 'The payment provider’s certificate expired.',
    });
    const update = await until('the incident update', () =>
      mailsTo('alice@example.com').find((mail) => mail.subject.includes('Payments fail')),
    );
    expect(update.subject).toBe('[Example Shop] Payments fail: Identified');
    expect(update.text).toContain('The payment provider’s certificate expired.');
    // RFC 8058: a one-click unsubscribe link, and the POST mail clients send to it.
    const unsubscribeUrl = linkIn(update, 'unsubscribe');
    expect(update.headerLines).toContain('List-Unsubscribe-Post: List-Unsubscribe=One-Click');
    const { pathname, search } = new URL(unsubscribeUrl);
    expect(update.headerLines.map((line) => line.replace(/\s+/g, ' '))).toContain(
      `List-Unsubscribe: <https://status.example.test${pathname}${search}>`,
    );

    const window = await key.client.post('/maintenance-windows', {
      name: 'Payment provider switch',
      message: 'Card payments pause for a minute.',
      monitor_ids: [monitors.checkout],
      duration_minutes: 30,
    });
    expect(window.status).toBe(201);
    const maintenance = await until('the maintenance', () =>
      mailsTo('alice@example.com').find((mail) => mail.subject.includes('Maintenance started')),
    );
    expect(maintenance.subject).toBe('[Example Shop] Maintenance started: Payment provider switch');
    expect(maintenance.text).toContain('Affects: Checkout');
    await key.client.post(`/maintenance-windows/${window.body.id}/end`);
    // Told before the unsubscribe below: it was owed while subscribed, and a send under way is not called back.
    const ended = await until('the end of maintenance', () =>
      mailsTo('alice@example.com').find((mail) => mail.subject.includes('Maintenance ended')),
    );
    expect(ended.subject).toBe('[Example Shop] Maintenance ended: Payment provider switch');

    const oneClick = await fetch(unsubscribeUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'List-Unsubscribe=One-Click',
    });
    expect(oneClick.status).toBe(200);
    expect((await key.client.get(`/status-pages/${pageId}/subscribers`)).body.data).toEqual([]);
    const before = mailsTo('alice@example.com').length;
    // A webhook subscriber hears the next update: by then, an e-mail would have been sent too.
    expect((await subscribe({ webhook_url: `${receiver.origin}/status` })).body).toEqual({ status: 'subscribed' });
    await key.client.patch(`/status-pages/${pageId}/incidents/${incident.body.id}`, {
      status: 'resolved',
      message: 'Payments work again.',
    });
    await until('the webhook’s update', () => hooks().find((hook) => hook.incident?.status === 'resolved'));
    await sleep(500);
    expect(mailsTo('alice@example.com')).toHaveLength(before);
    // Unsubscribing again answers the same.
    expect((await fetch(unsubscribeUrl, { method: 'POST' })).status).toBe(200);
  });

  it('tells a webhook of maintenance on the components it follows only, with its own unsubscribe link', async () => {
    const blog = components.find((component) => component.name === 'Blog')!;
    expect((await subscribe({ webhook_url: `${receiver.origin}/blog`, component_ids: [blog.id] })).status).toBe(202);
    const blogHooks = () =>
      receiver.requests
        .filter((request) => request.path === '/blog')
        .map((request) => JSON.parse(request.body) as Json);
    const checkout = await key.client.post('/maintenance-windows', {
      name: 'Checkout upgrade',
      monitor_ids: [monitors.checkout],
      duration_minutes: 10,
    });
    const blogWindow = await key.client.post('/maintenance-windows', {
      name: 'Blog move',
      monitor_ids: [monitors.blog],
      duration_minutes: 10,
    });
    const told = await until('the blog maintenance', () =>
      blogHooks().find((hook) => hook.type === 'maintenance.started'),
    );
    expect(told).toMatchObject({
      type: 'maintenance.started',
      status_page: { title: 'Example Shop', url: `https://status.example.test/status/${slug}` },
      incident: null,
      maintenance: { name: 'Blog move', components: ['Blog'] },
    });
    await sleep(500);
    expect(blogHooks().map((hook) => hook.maintenance?.name)).toEqual(['Blog move']);
    for (const window of [checkout, blogWindow]) await key.client.delete(`/maintenance-windows/${window.body.id}`);

    const unsubscribe = new URL(told.unsubscribe_url);
    expect(unsubscribe.origin).toBe('https://status.example.test');
    const token = unsubscribe.searchParams.get('token')!;
    expect((await publicApi().post('/status-pages/public/subscriptions/unsubscribe', { token })).body).toEqual({
      status: 'unsubscribed',
    });
  });

  it('answers the same whoever subscribed, refuses forged tokens and bad input, and limits each client', async () => {
    await subscribe({ email: 'bob@example.com' });
    const bobsLink = linkIn(await until('bob’s confirmation', () => mailsTo('bob@example.com')[0]), 'confirm');
    const token = new URL(bobsLink).searchParams.get('token')!;
    expect((await publicApi().post('/status-pages/public/subscriptions/confirm', { token })).body).toEqual({
      status: 'confirmed',
    });
    const sent = mails.length;
    // Already subscribed: the same answer as for a new address, and no mail.
    expect((await subscribe({ email: 'bob@example.com' })).body).toEqual({ status: 'confirmation_sent' });
    await sleep(700);
    expect(mails).toHaveLength(sent);

    const forged = token.replace(/.$/, (last) => (last === 'A' ? 'B' : 'A'));
    const refusals = [
      await publicApi().post('/status-pages/public/subscriptions/confirm', { token: forged }),
      await publicApi().post('/status-pages/public/subscriptions/unsubscribe', { token }),
      await publicApi().post('/status-pages/public/subscriptions/confirm', { token: 'x' }),
    ];
    // A confirm token does not unsubscribe: each link does one thing.
    expect(refusals.map((answer) => answer.status)).toEqual([404, 404, 404]);
    expect((await subscribe({})).status).toBe(400);
    expect((await subscribe({ email: 'a@example.com', webhook_url: `${receiver.origin}/x` })).status).toBe(400);
    expect((await subscribe({ email: 'not an address' })).status).toBe(400);
    const unknownComponent = await subscribe({
      email: 'c@example.com',
      component_ids: ['00000000-0000-4000-8000-000000000000'],
    });
    expect(unknownComponent.body.errors).toEqual([
      { field: 'component_ids[0]', message: 'is not a component of this page' },
    ]);
    expect(
      (await publicApi().post('/status-pages/public/no-such-page/subscribers', { email: 'd@example.com' })).status,
    ).toBe(404);
    // The page's admins see the addresses; the public page never does.
    expect(JSON.stringify((await publicApi().get(`/status-pages/public/${slug}`)).body)).not.toContain('bob@');

    let limited: Json | undefined;
    for (let attempt = 0; attempt < 25 && !limited; attempt += 1) {
      const answer = await subscribe({ email: `many-${attempt}@example.com` });
      if (answer.status === 429) limited = answer;
    }
    expect(limited).toBeDefined();
    expect(Number(limited!.headers.get('retry-after'))).toBeGreaterThan(0);
  });

  it('subscribes from the page for people, and lets the workspace remove a subscriber', async () => {
    const html = await (await fetch(`${service.baseUrl}/status/${slug}`)).text();
    expect(html).toContain(`action="/status/${slug}/subscribe"`);
    const form = await fetch(`${service.baseUrl}/status/${slug}/subscribe`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'email=carol%40example.com',
    });
    // The client's limit may be spent by the test above: either answer is a page for people.
    expect([200, 429]).toContain(form.status);
    expect(form.headers.get('content-type')).toContain('text/html');
    const subscribers = (await key.client.get(`/status-pages/${pageId}/subscribers`)).body.data as Json[];
    const bob = subscribers.find((subscriber) => subscriber.email === 'bob@example.com')!;
    expect((await key.client.delete(`/status-pages/${pageId}/subscribers/${bob.id}`)).status).toBe(204);
    expect((await key.client.delete(`/status-pages/${pageId}/subscribers/${bob.id}`)).status).toBe(404);
  });
});
