import { randomUUID } from 'node:crypto';
import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import { createHttpApp } from '../../src/http/http-app';
import { startTestApp, testConfig, type TestApp } from '../support/test-app';
import { loadContract } from '../../src/openapi/contract';
import { differences, normalizeOperations } from '../support/openapi-diff';
import { ApiClient, type ApiResponse } from '../support/api-client';
import { createAccount, issueKey } from '../support/accounts';

type Json = Record<string, any>;

const RATE_LIMIT_HEADERS = ['RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset'];
/** Answers given before the caller is known: no bucket to report. */
const BEFORE_THE_CALLER_IS_KNOWN = new Set(['401', '413', '415']);

describe('openapi.yaml and the running app', () => {
  let app: INestApplication;

  beforeAll(async () => {
    app = await createHttpApp(testConfig({ ROLE: 'api' }));
  });
  afterAll(() => app.close());

  it('describe the same operations, parameters, bodies, statuses and schemas', () => {
    const generated = SwaggerModule.createDocument(app, new DocumentBuilder().build(), { ignoreGlobalPrefix: true });
    const fromCode = normalizeOperations(generated, {
      closeRequestBodies: true,
      closeResponsesOf: ['exportDeclaration'],
    });
    const fromContract = normalizeOperations(loadContract().document);
    expect(differences(fromContract, fromCode)).toEqual([]);
  });
});

describe('the headers openapi.yaml documents are the ones sent', () => {
  const document = loadContract().document as Json;
  const resolve = (node: Json): Json =>
    typeof node.$ref === 'string'
      ? node.$ref
          .slice(2)
          .split('/')
          .reduce<Json>((at, segment) => at[segment] as Json, document)
      : node;

  it('every 2xx and 4xx of an authenticated operation documents RateLimit-* (but those sent before the caller is known)', () => {
    const missing: string[] = [];
    for (const [path, item] of Object.entries(document.paths as Json)) {
      for (const [method, operation] of Object.entries(item as Json)) {
        if (!(operation as Json).security?.length) continue;
        for (const [status, response] of Object.entries((operation as Json).responses as Json)) {
          if (!/^[24]/.test(status) || BEFORE_THE_CALLER_IS_KNOWN.has(status)) continue;
          const headers = Object.keys((resolve(response as Json).headers ?? {}) as Json);
          if (!RATE_LIMIT_HEADERS.every((name) => headers.includes(name))) missing.push(`${method} ${path} ${status}`);
        }
      }
    }
    expect(missing).toEqual([]);
  });

  describe('against the running service', () => {
    let service: TestApp;
    let api: ApiClient;

    beforeAll(async () => {
      service = await startTestApp({ ROLE: 'api' });
      api = new ApiClient(service.baseUrl);
    });
    afterAll(() => service.close());

    it('RateLimit-* come with every answer to a known caller, 2xx and 4xx alike; a 401 names its challenge', async () => {
      const person = await createAccount(api);
      const key = await issueKey(person, ['monitors:read', 'monitors:write']);
      const monitor = { name: 'Headers', url: 'https://example.com/', interval_seconds: 300 };
      const idempotencyKey = randomUUID();
      const created = await key.client.post('/monitors', monitor, { headers: { 'Idempotency-Key': idempotencyKey } });
      const answers: [number, ApiResponse][] = [
        [200, await key.client.get('/monitors')],
        [201, created],
        [400, await key.client.post('/monitors', { ...monitor, interval_seconds: 1 })],
        [400, await key.client.get('/monitors', { headers: { 'X-Workspace-Id': 'not-a-uuid' } })],
        [403, await key.client.get('/users/me')],
        [404, await key.client.get(`/monitors/${randomUUID()}`)],
        [404, await person.session.get('/monitors', { headers: { 'X-Workspace-Id': randomUUID() } })],
        [
          409,
          await person.session.post(`/workspaces/${person.workspaceId}/members`, {
            email: person.email,
            role: 'member',
          }),
        ],
        [
          422,
          await key.client.post(
            '/monitors',
            { ...monitor, name: 'other' },
            { headers: { 'Idempotency-Key': idempotencyKey } },
          ),
        ],
        [204, await key.client.delete(`/monitors/${created.body.id}`)],
      ];
      for (const [status, answer] of answers) {
        expect(answer.status).toBe(status);
        for (const name of RATE_LIMIT_HEADERS)
          expect([status, name, answer.headers.has(name)]).toEqual([status, name, true]);
      }

      const unauthenticated = await api.get('/monitors');
      expect(unauthenticated.status).toBe(401);
      expect(unauthenticated.headers.get('www-authenticate')).toBe('Bearer');
      expect(unauthenticated.headers.has('RateLimit-Limit')).toBe(false);
    });
  });
});
