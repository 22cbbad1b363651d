import { randomBytes } from 'node:crypto';
import { ApiClient } from '../support/api-client';
import { createAccount, issueKey, type IssuedKey, signInAsAdmin } from '../support/accounts';
import { TestCertificateAuthority } from '../support/test-certificates';
import { startTestApp, type TestApp } from '../support/test-app';
import { TestSite } from '../support/test-site';
import { Receiver, sleep, until } from './alerts-receiver';

type Json = Record<string, any>;

const METRICS_TOKEN = `metrics-${randomBytes(16).toString('hex')}`;

/**
 * Certificate expiry (issue #29): every HTTPS check records the certificate it was served; a `certificate_expiry` rule
 * fires once per certificate and clears when a renewed one is served; an invalid certificate fails the check with
 * its reason. Real worker, PostgreSQL, Redis, a local HTTPS site with certificates from a CA made by the test.
 */
describe('monitor certificates', () => {
  let service: TestApp;
  let authority: TestCertificateAuthority;
  let site: TestSite;
  let receiver: Receiver;
  let key: IssuedKey;

  beforeAll(async () => {
    authority = await TestCertificateAuthority.create();
    // The service trusts the test's CA as an operator's NODE_EXTRA_CA_CERTS would make it.
    authority.trust();
    site = await new TestSite().start({ certificate: await authority.issue({ daysLeft: 5 }) });
    site.set('/', '<title>Shop</title><h1>Shop</h1>');
    receiver = await new Receiver().start();
    service = await startTestApp({ SCHEDULER_TICK_MS: '60000', METRICS_TOKEN });
    const owner = await createAccount(new ApiClient(service.baseUrl));
    key = await issueKey(owner, ['monitors:read', 'monitors:write', 'alerts:read', 'alerts:write']);
    await (
      await signInAsAdmin(new ApiClient(service.baseUrl))
    ).put(`/admin/api-keys/${key.id}/rate-limit`, { requests_per_minute: 100_000 });
  });
  afterAll(async () => {
    await service?.close();
    await site?.stop();
    await receiver?.stop();
  });

  async function checkNow(id: string): Promise<Json> {
    const run = await key.client.post(`/monitors/${id}/check`);
    expect(run.status).toBe(200);
    return run.body;
  }

  const certificateEvents = () =>
    receiver.requests
      .filter((request) => request.path === '/certs')
      .map((request) => JSON.parse(request.body) as Json)
      .filter((event) => event.type.startsWith('certificate.'));

  it('records the certificate, alerts once at 14 days for a certificate with 5 left, and clears on renewal', async () => {
    const hook = await key.client.post('/alert-destinations', {
      name: 'Certificates',
      type: 'webhook',
      config: { url: `${receiver.origin}/certs` },
    });
    expect(hook.status).toBe(201);
    const monitor = (await key.client.post('/monitors', { name: 'Shop', url: `${site.origin}/` })).body;
    const rule = await key.client.post(`/monitors/${monitor.id}/rules`, {
      event: 'certificate_expiry',
      days_before: 14,
      destination_ids: [hook.body.id],
    });
    expect(rule.status).toBe(201);
    expect(rule.body).toMatchObject({ event: 'certificate_expiry', days_before: 14, threshold_ms: null, state: 'ok' });

    const first = await checkNow(monitor.id);
    expect(first.results[0]).toMatchObject({ ok: true, failure: null, message: null });
    expect(first.results[0].certificate).toMatchObject({
      issuer: 'CN=Vigil Test CA, O=Vigil tests',
      subject: 'CN=127.0.0.1',
      days_left: 5,
    });
    expect(first.monitor.certificate).toEqual(first.results[0].certificate);

    const expiring = await until('certificate.expiring', () => certificateEvents()[0]);
    expect(expiring).toMatchObject({
      type: 'certificate.expiring',
      data: {
        monitor: { id: monitor.id, name: 'Shop' },
        rule_id: rule.body.id,
        certificate: { days_left: 5, fingerprint_sha256: first.results[0].certificate.fingerprint_sha256 },
      },
    });
    const ruleState = async () => (await key.client.get(`/monitors/${monitor.id}/rules`)).body.data[0].state;
    expect(await ruleState()).toBe('firing');

    // The same certificate on later checks: no second alert.
    await checkNow(monitor.id);
    await checkNow(monitor.id);
    await sleep(1_000);
    expect(certificateEvents()).toHaveLength(1);

    // /metrics states the expiry of each monitor's certificate.
    const metrics = await fetch(`${service.baseUrl}/metrics`, {
      headers: { Authorization: `Bearer ${METRICS_TOKEN}` },
    });
    const line = (await metrics.text())
      .split('\n')
      .find(
        (text) => text.startsWith('vigil_monitor_certificate_expiry_timestamp_seconds{') && text.includes(monitor.id),
      );
    expect(Number(line?.split(' ').pop())).toBe(Date.parse(first.results[0].certificate.expires_at) / 1000);

    // Renewed: the next check is served a certificate with 90 days left and the rule clears, once.
    site.serveCertificate(await authority.issue({ daysLeft: 90 }));
    const renewed = await checkNow(monitor.id);
    expect(renewed.results[0].certificate.days_left).toBe(90);
    expect(renewed.monitor.certificate.fingerprint_sha256).not.toBe(first.results[0].certificate.fingerprint_sha256);
    await until('certificate.renewed', () => certificateEvents()[1]);
    expect(certificateEvents().map((event) => event.type)).toEqual(['certificate.expiring', 'certificate.renewed']);
    expect(await ruleState()).toBe('ok');
  });

  it('fails a check served an expired certificate with the reason, and records that certificate', async () => {
    site.serveCertificate(await authority.issue({ daysLeft: -2 }));
    const monitor = (await key.client.post('/monitors', { name: 'Expired', url: `${site.origin}/` })).body;
    const run = await checkNow(monitor.id);
    expect(run.results[0]).toMatchObject({ ok: false, failure: 'certificate', status_code: null });
    expect(run.results[0].message).toMatch(/^the certificate of 127\.0\.0\.1 expired on \d{4}-\d\d-\d\d/);
    expect(run.results[0].certificate.days_left).toBe(-2);
    expect(run.monitor).toMatchObject({ status: 'down', certificate: { days_left: -2 } });
  });

  it('fails a browser check whose certificate Chromium refuses with certificate, naming Chromium’s reason', async () => {
    // Chromium has its own trust store, which does not hold the test's CA.
    const monitor = (await key.client.post('/monitors', { name: 'Rendered', url: `${site.origin}/`, mode: 'browser' }))
      .body;
    const run = await checkNow(monitor.id);
    expect(run.results[0]).toMatchObject({ ok: false, failure: 'certificate', certificate: null });
    expect(run.results[0].message).toMatch(/ERR_CERT_AUTHORITY_INVALID/);
  });

  it('validates certificate_expiry rules field by field', async () => {
    const monitor = (await key.client.post('/monitors', { name: 'Rules', url: `${site.origin}/` })).body;
    const hook = (await key.client.get('/alert-destinations')).body.data[0];
    const rule = (body: Json) =>
      key.client.post(`/monitors/${monitor.id}/rules`, { destination_ids: [hook.id], ...body });
    const refused = async (body: Json, field: string) => {
      const answer = await rule(body);
      expect(answer.status).toBe(400);
      expect(answer.body.errors.map((error: Json) => error.field)).toContain(field);
    };
    await refused({ event: 'certificate_expiry' }, 'days_before');
    await refused({ event: 'certificate_expiry', days_before: 0 }, 'days_before');
    await refused({ event: 'certificate_expiry', days_before: 366 }, 'days_before');
    await refused({ event: 'down', days_before: 14 }, 'days_before');
    await refused({ event: 'certificate_expiry', days_before: 14, reminder_minutes: 60 }, 'reminder_minutes');
    await refused({ event: 'certificate_expiry', days_before: 14, confirm: { consecutive_failures: 2 } }, 'confirm');
    const created = await rule({ event: 'certificate_expiry', days_before: 30 });
    expect(created.status).toBe(201);
    const changed = await key.client.patch(`/monitors/${monitor.id}/rules/${created.body.id}`, { days_before: 7 });
    expect(changed.body.days_before).toBe(7);
    expect(
      (await key.client.patch(`/monitors/${monitor.id}/rules/${created.body.id}`, { threshold_ms: 500 })).status,
    ).toBe(400);
    expect((await key.client.get(`/monitors/${monitor.id}/rules`)).body.data).toHaveLength(1);
  });
});
