import { ApiClient } from '../support/api-client';
import { createAccount, issueKey, type IssuedKey, signInAsAdmin } from '../support/accounts';
import { startTestApp, type TestApp } from '../support/test-app';
import { TestSite } from '../support/test-site';

type Json = Record<string, any>;

/**
 * Response assertions on HTTP monitors (issue #29): each condition is checked on every check's response, and a failed
 * check lists each failed condition with the value it read (`failed_assertions`, each with its `actual`). Real worker,
 * PostgreSQL, Redis and a site on 127.0.0.1.
 */
describe('monitor response assertions', () => {
  let service: TestApp;
  let site: TestSite;
  let key: IssuedKey;

  beforeAll(async () => {
    site = await new TestSite().start();
    service = await startTestApp({ SCHEDULER_TICK_MS: '60000' });
    const owner = await createAccount(new ApiClient(service.baseUrl));
    key = await issueKey(owner, ['monitors:read', 'monitors:write']);
    await (
      await signInAsAdmin(new ApiClient(service.baseUrl))
    ).put(`/admin/api-keys/${key.id}/rate-limit`, {
      requests_per_minute: 100_000,
    });
  });
  afterAll(async () => {
    await service?.close();
    await site?.stop();
  });

  const weather = (temp: number) => ({
    html: JSON.stringify({ station: 'Lyon', temp, readings: [{ at: '10:00', ok: true }] }),
    contentType: 'application/json',
    headers: { 'cache-control': 'max-age=60', 'x-build': '2026.11' },
  });

  async function checkNow(id: string): Promise<Json> {
    const run = await key.client.post(`/monitors/${id}/check`);
    expect(run.status).toBe(200);
    return run.body.results[0];
  }

  it('a check fails listing each failed condition with the value read, and passes once they hold', async () => {
    site.set('/weather', weather(83));
    const created = await key.client.post('/monitors', {
      name: 'Weather API',
      url: `${site.origin}/weather`,
      assertions: [
        { type: 'json_path', property: '$.temp', operator: 'less_than', value: '80' },
        { type: 'json_path', property: '$.readings[0].ok', operator: 'equals', value: 'true' },
        { type: 'header', property: 'cache-control', operator: 'contains', value: 'max-age' },
        { type: 'header', property: 'x-build', operator: 'matches', value: '^2026\\.12' },
        { type: 'status', operator: 'equals', value: '200' },
        { type: 'response_time', operator: 'less_than', value: '10000' },
        { type: 'body_regex', operator: 'matches', value: '"station":\\s*"Lyon"' },
        { type: 'body_regex', operator: 'not_contains', value: 'Paris' },
        { type: 'header', property: 'etag', operator: 'exists' },
      ],
    });
    expect(created.status).toBe(201);
    expect(created.body.assertions[0]).toEqual({
      type: 'json_path',
      property: '$.temp',
      operator: 'less_than',
      value: '80',
    });
    expect(created.body.assertions[4]).toEqual({
      type: 'status',
      property: null,
      operator: 'equals',
      value: '200',
    });

    const failing = await checkNow(created.body.id);
    expect(failing).toMatchObject({
      ok: false,
      status_code: 200,
      failure: 'assertion',
      message:
        '$.temp is 83, expected < 80; header x-build is "2026.11", expected to match /^2026\\.12/; ' +
        'header etag is missing, expected to exist',
    });
    expect(failing.failed_assertions).toEqual([
      {
        type: 'json_path',
        property: '$.temp',
        operator: 'less_than',
        value: '80',
        actual: '83',
        message: '$.temp is 83, expected < 80',
      },
      {
        type: 'header',
        property: 'x-build',
        operator: 'matches',
        value: '^2026\\.12',
        actual: '2026.11',
        message: 'header x-build is "2026.11", expected to match /^2026\\.12/',
      },
      {
        type: 'header',
        property: 'etag',
        operator: 'exists',
        value: null,
        actual: null,
        message: 'header etag is missing, expected to exist',
      },
    ]);
    // The result as listed later says the same.
    const [listed] = (await key.client.get(`/monitors/${created.body.id}/checks`)).body.data;
    expect(listed.failed_assertions).toEqual(failing.failed_assertions);

    site.set('/weather', {
      ...weather(72),
      headers: { 'cache-control': 'max-age=60', 'x-build': '2026.12.1', etag: '"w72"' },
    });
    expect(await checkNow(created.body.id)).toMatchObject({
      ok: true,
      failure: null,
      message: null,
      failed_assertions: [],
    });
  });

  it('a body_regex condition fails with the body it read, cut at 200 characters', async () => {
    site.set('/long', { html: `maintenance ${'.'.repeat(400)}`, contentType: 'text/plain' });
    const created = await key.client.post('/monitors', {
      name: 'Long body',
      url: `${site.origin}/long`,
      assertions: [{ type: 'body_regex', operator: 'not_matches', value: '^maint' }],
    });
    expect(created.status).toBe(201);
    const result = await checkNow(created.body.id);
    expect(result.failure).toBe('assertion');
    expect(result.failed_assertions).toEqual([
      {
        type: 'body_regex',
        property: null,
        operator: 'not_matches',
        value: '^maint',
        actual: `maintenance ${'.'.repeat(188)}`,
        message: 'body matches /^maint/',
      },
    ]);
  });

  it('reads the text a CSS selector picks, and fails a JSONPath condition on an HTML body with the reason', async () => {
    site.set('/pricing', '<!doctype html><title>Plans</title><p class="price">€49</p>');
    const created = await key.client.post('/monitors', {
      name: 'Pricing',
      url: `${site.origin}/pricing`,
      assertions: [
        { type: 'css_text', property: '.price', operator: 'equals', value: '€49' },
        { type: 'json_path', property: '$.plans', operator: 'exists' },
      ],
    });
    expect(created.status).toBe(201);
    const result = await checkNow(created.body.id);
    expect(result.failure).toBe('assertion');
    expect(result.message).toMatch(/^\$\.plans: the body is not JSON \(/);
    expect(result.message).not.toContain('.price');
    expect(result.failed_assertions).toEqual([
      {
        type: 'json_path',
        property: '$.plans',
        operator: 'exists',
        value: null,
        actual: null,
        message: result.message,
      },
    ]);
  });

  it('refuses assertions that cannot be evaluated, naming each field, and changes nothing', async () => {
    const refused = await key.client.post('/monitors', {
      name: 'Bad',
      url: `${site.origin}/weather`,
      assertions: [
        { type: 'json_path', property: 'temp', operator: 'less_than', value: 'warm' },
        { type: 'header', operator: 'exists' },
        { type: 'body_regex', operator: 'matches', value: '(a+)+(?=b)' },
      ],
    });
    expect(refused.status).toBe(400);
    expect(refused.body.errors.map((error: Json) => error.field)).toEqual([
      'assertions[0].property',
      'assertions[0].value',
      'assertions[1].property',
      'assertions[2].value',
    ]);
    const unknownType = await key.client.post('/monitors', {
      name: 'Bad',
      url: `${site.origin}/weather`,
      assertions: [{ type: 'cookie', operator: 'exists' }],
    });
    expect(unknownType.status).toBe(400);
    expect(unknownType.body.errors[0].field).toBe('assertions[0].type');
    // The names before DESIGN's (`source`, `status_code`, `body`) are not taken.
    const oldNames = await key.client.post('/monitors', {
      name: 'Bad',
      url: `${site.origin}/weather`,
      assertions: [{ source: 'status_code', operator: 'equals', value: '200' }],
    });
    expect(oldNames.status).toBe(400);
    expect(oldNames.body.errors.map((error: Json) => error.field)).toContain('assertions[0].source');
    const bodyOperator = await key.client.post('/monitors', {
      name: 'Bad',
      url: `${site.origin}/weather`,
      assertions: [{ type: 'body_regex', operator: 'less_than', value: '3' }],
    });
    expect(bodyOperator.body.errors).toEqual([
      {
        field: 'assertions[0].operator',
        message: 'must be one of contains, not_contains, matches, not_matches for body_regex',
      },
    ]);
    const browser = await key.client.post('/monitors', {
      name: 'Rendered',
      url: `${site.origin}/weather`,
      mode: 'browser',
      assertions: [{ type: 'status', operator: 'equals', value: '200' }],
    });
    expect(browser.status).toBe(400);
    expect(browser.body.errors[0].field).toBe('assertions');
    const names = (await key.client.get('/monitors', { query: { per_page: 100 } })).body.data.map(
      (monitor: Json) => monitor.name,
    );
    expect(names).not.toContain('Bad');
    expect(names).not.toContain('Rendered');
  });

  it('replaces the assertions on update; [] removes them, and a browser mode needs them gone', async () => {
    site.set('/weather', weather(90));
    const created = await key.client.post('/monitors', {
      name: 'Weather, again',
      url: `${site.origin}/weather`,
      assertions: [{ type: 'json_path', property: '$.temp', operator: 'less_than', value: '80' }],
    });
    const toBrowser = await key.client.patch(`/monitors/${created.body.id}`, { mode: 'browser' });
    expect(toBrowser.status).toBe(400);
    expect(toBrowser.body.errors[0].field).toBe('mode');
    const cleared = await key.client.patch(`/monitors/${created.body.id}`, { assertions: [] });
    expect(cleared.body.assertions).toEqual([]);
    expect(await checkNow(created.body.id)).toMatchObject({ ok: true });
  });
});
