import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { createVigilClient } from '../../libs/api-client';
import { loadContract } from '../../src/openapi/contract';
import { ApiClient } from '../support/api-client';
import { createAccount, issueKey } from '../support/accounts';
import { startTestApp } from '../support/test-app';

const run = promisify(execFile);
const ROOT = join(__dirname, '..', '..');
const bin = (name: string) => join(ROOT, 'node_modules', '.bin', name);
const quiet = { ...process.env, NODE_OPTIONS: '', REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' };

describe('integrators get a working, typed client from openapi.yaml', () => {
  it('openapi.yaml passes Redocly lint (recommended-strict)', async () => {
    const { stdout, stderr } = await run(bin('redocly'), ['lint', 'openapi.yaml'], { cwd: ROOT, env: quiet });
    expect(`${stdout}${stderr}`).toContain('Your API description is valid');
  });

  it('the committed client types are what `npm run api-client` generates from openapi.yaml today', async () => {
    const fresh = join(mkdtempSync(join(tmpdir(), 'vigil-client-')), 'schema.d.ts');
    // As package.json's `api-client` script: openapi-typescript's own defaults, as an integrator runs it.
    await run(bin('openapi-typescript'), ['openapi.yaml', '-o', fresh], { cwd: ROOT, env: quiet });
    expect(readFileSync(join(ROOT, 'libs/api-client/schema.d.ts'), 'utf8')).toBe(readFileSync(fresh, 'utf8'));
  });

  it('states defaults in descriptions, never as a schema `default` a generator would make required', () => {
    const found: string[] = [];
    const walk = (node: unknown, path: string): void => {
      if (Array.isArray(node)) node.forEach((item, index) => walk(item, `${path}/${index}`));
      else if (node && typeof node === 'object') {
        for (const [key, value] of Object.entries(node)) {
          // A server variable's default is its value, not a field's.
          if (key === 'default' && !path.includes('/variables/') && !path.endsWith('/responses')) found.push(path);
          walk(value, `${path}/${key}`);
        }
      }
    };
    walk(loadContract().document, '#');
    expect(found).toEqual([]);
  });

  it('a usage sample type-checks against the generated client (and a wrong scope does not)', async () => {
    await expect(
      run(bin('tsc'), ['-p', 'test/contract/tsconfig.sample.json'], { cwd: ROOT, env: quiet }),
    ).resolves.toBeDefined();
  });

  it('the client talks to the running service', async () => {
    const service = await startTestApp();
    try {
      const person = await createAccount(new ApiClient(service.baseUrl));
      const key = await issueKey(person, ['users:read', 'users:write']);
      const client = createVigilClient({ baseUrl: service.baseUrl, apiKey: key.secret });
      const me = await client.GET('/users/me');
      expect(me.data?.email).toBe(person.email);
      const refused = await client.POST('/users/me/api-keys', { body: { name: 'x', scopes: [] as never } });
      expect(refused.response.status).toBe(400);
      expect(refused.error?.code).toBe('validation_failed');
    } finally {
      await service.close();
    }
  });
});
