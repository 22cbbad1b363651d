import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import S3rver from 's3rver';
import { S3ArtifactStore } from '../../src/artifacts/s3-artifact-store';
import { ApiClient } from '../support/api-client';
import { createAccount, issueKey, type IssuedKey, signInAsAdmin } from '../support/accounts';
import { waitForCollection } from '../support/release-checks';
import { startTestApp, type TestApp } from '../support/test-app';
import { page, TestSite } from '../support/test-site';
import { startWorkerProcess } from '../support/worker-process';

const BUCKET = 'vigil-artifacts';

/**
 * Scale-out with a shared bucket: two API instances and a worker and a scheduler process, each with a local directory of
 * its own, share PostgreSQL, Redis and an S3-compatible bucket (s3rver, started here). A check opened on one instance
 * and captured by the worker process is served, screenshots included, by the other instance.
 */
describe('artifacts in an S3-compatible bucket', () => {
  let s3: S3rver;
  let s3Env: Record<string, string>;
  let site: TestSite;
  let first: TestApp;
  let second: TestApp;
  let ci: IssuedKey;
  const folders: string[] = [];
  const processes: { kill(): void; output(): string }[] = [];
  const folder = () => {
    const path = mkdtempSync(join(tmpdir(), 'vigil-artifacts-'));
    folders.push(path);
    return path;
  };

  beforeAll(async () => {
    s3 = new S3rver({
      port: 0,
      address: '127.0.0.1',
      directory: folder(),
      silent: true,
      configureBuckets: [{ name: BUCKET, configs: [] }],
    });
    const { port } = await s3.run();
    s3Env = {
      ARTIFACT_STORE: 's3',
      S3_ENDPOINT: `http://127.0.0.1:${port}`,
      S3_BUCKET: BUCKET,
      S3_REGION: 'us-east-1',
      S3_ACCESS_KEY_ID: 'S3RVER',
      S3_SECRET_ACCESS_KEY: 'S3RVER',
      S3_FORCE_PATH_STYLE: 'true',
    };
    site = await new TestSite().start();
    site.set('/prod/pricing', page({ body: '<main><h1>Pricing</h1><p>$10</p></main>' }));
    site.set('/preview/pricing', page({ body: '<main><h1>Pricing</h1><p>$12</p></main>' }));
    first = await startTestApp({ ...s3Env, ROLE: 'api', ARTIFACT_DIR: folder() });
    second = await startTestApp({ ...s3Env, ROLE: 'api', ARTIFACT_DIR: folder() });
    processes.push(startWorkerProcess({ ...s3Env, ARTIFACT_DIR: folder() }));
    processes.push(startWorkerProcess({ ...s3Env, ROLE: 'scheduler', ARTIFACT_DIR: folder() }));
    const person = await createAccount(new ApiClient(first.baseUrl));
    ci = await issueKey(person, ['monitors:read', 'monitors:write']);
    const admin = await signInAsAdmin(new ApiClient(first.baseUrl));
    await admin.put(`/admin/api-keys/${ci.id}/rate-limit`, { requests_per_minute: 100_000 });
  }, 120_000);

  afterAll(async () => {
    for (const running of processes) running.kill();
    await second?.close();
    await first?.close();
    await site?.stop();
    await s3?.close();
    for (const path of folders) rmSync(path, { recursive: true, force: true });
  });

  it('keeps, reads and deletes whole objects and whole folders; a missing one is null', async () => {
    const store = new S3ArtifactStore({
      endpoint: s3Env.S3_ENDPOINT,
      bucket: BUCKET,
      region: 'us-east-1',
      accessKeyId: 'S3RVER',
      secretAccessKey: 'S3RVER',
      forcePathStyle: true,
    });
    try {
      const data = Buffer.alloc(3 * 1024 * 1024, 7);
      await store.put('reports/a/b.bin', data);
      expect((await store.get('reports/a/b.bin'))?.equals(data)).toBe(true);
      await store.delete('reports/a/b.bin');
      expect(await store.get('reports/a/b.bin')).toBeNull();
      await store.delete('reports/a/b.bin');

      // A folder goes whole, over more than one listing page (1,000 keys each); its neighbours stay.
      const keys = Array.from({ length: 1005 }, (_, n) => `release-checks/c1/r1/a${n % 7}/f${n}.txt`);
      for (let start = 0; start < keys.length; start += 50) {
        await Promise.all(keys.slice(start, start + 50).map((key) => store.put(key, 'x')));
      }
      await store.put('release-checks/c10/r1/kept.txt', 'neighbour');
      await store.deleteFolder('release-checks/c1');
      expect(await store.get(keys[0])).toBeNull();
      expect(await store.get(keys[1004])).toBeNull();
      expect((await store.get('release-checks/c10/r1/kept.txt'))?.toString()).toBe('neighbour');
      await store.deleteFolder('release-checks/c1');
    } finally {
      store.close();
    }
  });

  it('serves from one API instance the screenshots a worker process captured for a check opened on the other', async () => {
    const opened = await ci.client.post('/release-checks', {
      name: 'Shared bucket',
      production_url: `${site.origin}/prod`,
      preview_url: `${site.origin}/preview`,
      request_key: `s3-${Date.now()}`,
      pages: [{ production_path: '/pricing', preview_path: '/pricing' }],
      viewports: ['desktop'],
    });
    expect(opened.status).toBe(201);
    const onSecond = new ApiClient(second.baseUrl).withApiKey(ci.secret);
    let check;
    try {
      check = await waitForCollection(onSecond, opened.body.id, 120_000);
    } catch (error) {
      throw new Error(`${(error as Error).message}\nworker output:\n${processes[0].output().slice(-3000)}`);
    }
    expect(check.collection_status).toBe('completed');
    const artifact = check.artifacts[0];
    for (const name of ['production.png', 'preview.png']) {
      const file = await fetch(`${second.baseUrl}/api/v1/release-checks/${check.id}/artifacts/${artifact.id}/${name}`, {
        headers: { 'X-API-Key': ci.secret },
      });
      expect(file.status).toBe(200);
      const png = Buffer.from(await file.arrayBuffer());
      expect(png.subarray(1, 4).toString()).toBe('PNG');
    }
    const text = await onSecond.get(`/release-checks/${check.id}/artifacts/${artifact.id}/preview.txt`);
    expect(text.status).toBe(200);
    expect(text.body).toContain('$12');
    // Nothing went to any machine's own directory.
    for (const path of folders.slice(1)) expect(readdirSync(path)).toEqual([]);
  });
});
