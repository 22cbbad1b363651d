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
const { prepareDatabase } = require('../dist/src/db/database.js');
const { Client } = require('pg');
const { ApiKeysService } = require('../dist/src/api-keys/api-keys.service.js');
const { UsersService } = require('../dist/src/users/users.service.js');
const { AuthService } = require('../dist/src/auth/auth.service.js');
const { scopeToWorkspace } = require('../dist/src/common/tenancy/workspace-scope.js');
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
  const auth = app.get(AuthService);
  const [owner] = await orm.em
    .fork()
    .getConnection()
    .execute(
      `select u.id, m.workspace_id from users u join workspace_members m on m.user_id = u.id where u.email = ?`,
      [admin.email],
    );
  const principal = {
    kind: 'session',
    userId: owner.id,
    role: 'admin',
    workspace: { id: owner.workspace_id, role: 'admin' },
    rateLimitPerMinute: 120,
  };
  // As the auth guard does: each request's unit of work is scoped to the workspace it acts in.
  const inContext = (fn) => () =>
    RequestContext.create(orm.em.fork(), () => {
      scopeToWorkspace(orm.em, owner.workspace_id);
      return fn();
    });
  const { secret } = await inContext(() => keys.create(principal, { name: 'bench', scopes: ['users:read'] }))();
  const rows = [
    ['API-key lookup (PostgreSQL, one indexed row)', await median(inContext(() => keys.authenticate(secret)))],
    [
      'session: person and workspace (PostgreSQL, one query; JWT verify not included)',
      await median(inContext(() => auth.sessionPrincipal({ sub: owner.id }, null))),
    ],
    ['rate-limit consume (Redis, rate-limiter-flexible)', await median(() => rateLimits.consume('bench', 1_000_000))],
    ['handler of /users/me: user and usage (not auth)', await median(inContext(() => users.currentUser(principal)))],
  ];
  console.log(
    `\nAuth + rate-limit path in process, ${ITERATIONS} sequential calls each (Node ${process.versions.node}):\n`,
  );
  console.log('| step | p50 (ms) | p99 (ms) |\n| --- | ---: | ---: |');
  for (const [label, { p50, p99 }] of rows) console.log(`| ${label} | ${p50.toFixed(3)} | ${p99.toFixed(3)} |`);
  for (const [label, lookup] of [
    ['Key lookup', rows[0][1]],
    ['Session lookup', rows[1][1]],
  ]) {
    const authPath = lookup.p50 + rows[2][1].p50;
    console.log(
      `\n${label} + rate limit: ${authPath.toFixed(3)} ms p50 (target < 1 ms: ${authPath < 1 ? 'met' : 'not met'}).`,
    );
  }
} finally {
  await app.close();
  const postgres = new Client({
    connectionString: process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres',
  });
  await postgres.connect();
  await postgres.query(`drop database if exists "${run}" with (force)`);
  await postgres.end();
  const { Redis } = require('ioredis');
  const redis = new Redis(config.redisUrl);
  const found = await redis.keys(`${run}:*`);
  if (found.length) await redis.unlink(...found);
  await redis.quit();
}
