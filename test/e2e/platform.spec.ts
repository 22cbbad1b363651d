import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ApiClient } from '../support/api-client';
import { type Account, createAccount, issueKey } from '../support/accounts';
import { startTestApp, type TestApp } from '../support/test-app';

describe('platform: health, metrics, request ids, versioning, lists, contract', () => {
  let service: TestApp;
  let api: ApiClient;
  let person: Account;

  beforeAll(async () => {
    service = await startTestApp();
    api = new ApiClient(service.baseUrl);
    person = await createAccount(api);
  });
  afterAll(() => service.close());

  it('reports liveness, and readiness of PostgreSQL and Redis', async () => {
    const live = await fetch(`${service.baseUrl}/health`);
    expect(live.status).toBe(200);
    expect(await live.json()).toEqual({ status: 'ok' });
    const ready = await fetch(`${service.baseUrl}/health/ready`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ status: 'ok', checks: { postgres: 'up', redis: 'up' } });
  });

  it('exposes Prometheus metrics: request counts per route template, latency, queue depths', async () => {
    await person.session.get('/users/me');
    const metrics = await (await fetch(`${service.baseUrl}/metrics`)).text();
    expect(metrics).toMatch(/vigil_http_requests_total\{method="GET",route="\/api\/v1\/users\/me",status="200"\} \d+/);
    expect(metrics).toContain('vigil_http_request_duration_seconds_bucket');
    expect(metrics).toMatch(/vigil_queue_jobs\{queue="release-check-captures",state="waiting"\} \d+/);
  });

  it('echoes a caller X-Request-Id, and makes one up otherwise', async () => {
    const echoed = await person.session.get('/users/me', { headers: { 'X-Request-Id': 'ci-run-42.step_3' } });
    expect(echoed.headers.get('x-request-id')).toBe('ci-run-42.step_3');
    const made = await person.session.get('/users/me', { headers: { 'X-Request-Id': 'bad id with spaces' } });
    expect(made.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('answers /api/<path> like /api/v1/<path>, marked deprecated with a successor link', async () => {
    const current = await person.session.get('/users/me');
    const legacy = await person.session.withPrefix('/api').get('/users/me');
    expect(legacy.status).toBe(200);
    expect(legacy.body.id).toBe(current.body.id);
    expect(legacy.headers.get('deprecation')).toBe('true');
    expect(legacy.headers.get('link')).toBe('</api/v1/users/me>; rel="successor-version"');
    expect(current.headers.get('deprecation')).toBeNull();
  });

  it('answers an unknown route with a 404 problem', async () => {
    const response = await person.session.get('/no-such-thing');
    expect(response.status).toBe(404);
    expect(response.body).toMatchObject({ code: 'not_found', status: 404, instance: '/api/v1/no-such-thing' });
  });

  it('serves openapi.yaml as written, as JSON, and the docs page', async () => {
    const yaml = await fetch(`${service.baseUrl}/api/v1/openapi.yaml`);
    expect(yaml.status).toBe(200);
    expect(await yaml.text()).toBe(readFileSync(join(__dirname, '..', '..', 'openapi.yaml'), 'utf8'));
    const json = await fetch(`${service.baseUrl}/api/v1/openapi.json`);
    expect((await json.json()).openapi).toBe('3.1.0');
    const docs = await fetch(`${service.baseUrl}/docs`);
    expect(docs.status).toBe(200);
    expect(await docs.text()).toContain('Vigil API');
  });

  it('pages lists with page, per_page, totals and Link headers', async () => {
    const owner = await createAccount(api);
    for (let index = 0; index < 5; index += 1) await issueKey(owner, ['users:read']);
    const first = await owner.session.get('/users/me/api-keys', { query: { per_page: 2 } });
    expect(first.body.pagination).toEqual({ page: 1, per_page: 2, total: 5, total_pages: 3 });
    expect(first.body.data).toHaveLength(2);
    expect(first.headers.get('link')).toBe('</api/v1/users/me/api-keys?per_page=2&page=2>; rel="next"');

    const last = await owner.session.get('/users/me/api-keys', { query: { per_page: 2, page: 3 } });
    expect(last.body.data).toHaveLength(1);
    expect(last.headers.get('link')).toBe('</api/v1/users/me/api-keys?per_page=2&page=2>; rel="prev"');

    const defaults = await owner.session.get('/users/me/api-keys');
    expect(defaults.body.pagination).toMatchObject({ page: 1, per_page: 20, total: 5 });
    const ids = new Set([...first.body.data, ...last.body.data].map((key: { id: string }) => key.id));
    expect(ids.size).toBe(3);
  });

  it("reports the caller's profile, plan and usage, counting today's requests", async () => {
    const key = await issueKey(person, ['users:read']);
    const before = (await key.client.get('/users/me')).body;
    expect(before).toMatchObject({
      id: person.id,
      email: person.email,
      role: 'member',
      plan: { name: 'free', limits: { requests_per_minute: 120 } },
      usage: { monitors: 0 },
    });
    await key.client.get('/users/me');
    await key.client.get('/users/me');
    const after = (await key.client.get('/users/me')).body;
    expect(after.usage.api_requests_today).toBe(before.usage.api_requests_today + 3);
  });
});
