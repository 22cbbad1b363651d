#!/usr/bin/env node
// The auth + rate-limit path's own cost, in process: what each request pays before its handler runs, timed apart
// from HTTP and from the handler's own work. Runs against the built service (dist/) on a throw-away database.
//
//   npm run build && node bench/auth-path.mjs      (also run by `npm run bench:api`)

import { createRequire } from 'node:module';
import { randomBytes } from 'node:crypto';

const require = createRequire(import.meta.url);
require('reflect-metadata');
const { MikroORM, RequestContext } = require('@mikro-orm/postgresql');
const { loadConfig } = require('../dist/src/config/app-config.js');
const { createHttpApp } = require('../dist/src/http/http-app.js');
const { prepareDatabase, dropDatabase } = require('../dist/src/db/database.js');
const { ApiKeysService } = require('../dist/src/api-keys/api-keys.service.js');
const { UsersService } = require('../dist/src/users/users.service.js');
const { RateLimitService } = require('../dist/src/common/rate-limit/rate-limit.service.js');

const ITERATIONS = Number(process.env.BENCH_ITERATIONS ?? 3000);
const run = `vigil_bench_${randomBytes(5).toString('hex')}`;
const admin = { email: 'bench-admin@example.com', password: randomBytes(12).toString('hex') };

async function median(fn) {
  for (let i = 0; i < 300; i += 1) await fn();
  const samples = [];
  for (let i = 0; i < ITERATIONS; i += 1) {
    const started = process.hrtime.bigint();
    await fn();
    samples.push(Number(process.hrtime.bigint() - started) / 1e6);
  }
  samples.sort((a, b) => a - b);
  return { p50: samples[Math.floor(samples.length / 2)], p99: samples[Math.floor(samples.length * 0.99)] };
}

const config = loadConfig({
  ...process.env,
  DATABASE_URL: `postgres://postgres@127.0.0.1:5432/${run}`,
  REDIS_PREFIX: run,
  LOG_LEVEL: 'warn',
  ADMIN_EMAIL: admin.email,
  ADMIN_PASSWORD: admin.password,
});
await prepareDatabase(config.databaseUrl, true);
const app = await createHttpApp(config);
try {
  const orm = app.get(MikroORM);
  const keys = app.get(ApiKeysService);
  const users = app.get(UsersService);
  const rateLimits = app.get(RateLimitService);
  const owner = await orm.em.fork().getConnection().execute('select id from users where email = ?', [admin.email]);
  const { secret } = await RequestContext.create(orm.em, () =>
    keys.create(owner[0].id, { name: 'bench', scopes: ['users:read'] }),
  );
  const inContext = (fn) => () => RequestContext.create(orm.em.fork(), fn);
  const rows = [
    ['API-key lookup (PostgreSQL, one indexed row)', await median(inContext(() => keys.authenticate(secret)))],
    ['rate-limit consume (Redis, rate-limiter-flexible)', await median(() => rateLimits.consume('bench', 1_000_000))],
    ['handler of /users/me: user and usage (not auth)', await median(inContext(() => users.currentUser(owner[0].id)))],
  ];
  console.log(
    `\nAuth + rate-limit path in process, ${ITERATIONS} sequential calls each (Node ${process.versions.node}):\n`,
  );
  console.log('| step | p50 (ms) | p99 (ms) |\n| --- | ---: | ---: |');
  for (const [label, { p50, p99 }] of rows) console.log(`| ${label} | ${p50.toFixed(3)} | ${p99.toFixed(3)} |`);
  const authPath = rows[0][1].p50 + rows[1][1].p50;
  console.log(
    `\nKey lookup + rate limit: ${authPath.toFixed(3)} ms p50 (target < 1 ms: ${authPath < 1 ? 'met' : 'not met'}).`,
  );
} finally {
  await app.close();
  await dropDatabase(config.databaseUrl);
  const { Redis } = require('ioredis');
  const redis = new Redis(config.redisUrl);
  const found = await redis.keys(`${run}:*`);
  if (found.length) await redis.unlink(...found);
  await redis.quit();
}
