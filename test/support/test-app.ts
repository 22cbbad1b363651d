import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { type AppConfig, loadConfig } from '../../src/config/app-config';
import { createHttpApp } from '../../src/http/http-app';

export interface TestApp {
  app: NestExpressApplication;
  config: AppConfig;
  baseUrl: string;
  close(): Promise<void>;
}

/**
 * The Redis prefix of this test file's apps, under the run's prefix. Bull workers sharing a prefix take each
 * other's jobs; apps of one file share theirs (two API instances must share rate-limit buckets), other files not.
 */
export const FILE_REDIS_PREFIX = `${process.env.REDIS_PREFIX}:${randomBytes(3).toString('hex')}`;

/** The configuration of a test app: the run's environment, this file's Redis prefix, and the overrides. */
export function testConfig(overrides: Record<string, string> = {}): AppConfig {
  return loadConfig({ ...process.env, REDIS_PREFIX: FILE_REDIS_PREFIX, ...overrides });
}

/** The real service (PostgreSQL, Redis, every module; workers too unless ROLE says otherwise) on a free port. */
export async function startTestApp(overrides: Record<string, string> = {}): Promise<TestApp> {
  const config = testConfig(overrides);
  const app = await createHttpApp(config);
  await app.listen(0, '127.0.0.1');
  const { port } = app.getHttpServer().address() as AddressInfo;
  return { app, config, baseUrl: `http://127.0.0.1:${port}`, close: () => app.close() };
}
