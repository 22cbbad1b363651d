// The service under test: built dist/src/main.js processes (one per role) on a throw-away PostgreSQL database and
// Redis prefix, an HTTP client for its API, and a cleanup that removes everything the run made, once, also on
// failure or Ctrl-C.

import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import pg from 'pg';
import { HOST, log, MAIN, ROOT, sleep } from './common.mjs';

const READY_TIMEOUT_MS = 60_000;
const STOP_TIMEOUT_MS = 15_000;
const OUTPUT_LINES = 200;

export function freePort() {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, HOST, () => {
      const { port } = server.address();
      server.close(() => resolvePort(port));
    });
  });
}

/** One service process with a role; keeps the last lines it wrote, for diagnosis. */
export class ServiceProcess {
  constructor(role, env) {
    this.role = role;
    this.output = [];
    this.exit = null; // { code, signal } once exited
    this.stopping = false;
    this.child = spawn(process.execPath, [MAIN], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    this.pid = this.child.pid;
    const remember = (chunk) => {
      for (const line of chunk.toString().split('\n')) {
        if (!line.trim()) continue;
        this.output.push(line);
        if (this.output.length > OUTPUT_LINES) this.output.shift();
      }
    };
    this.child.stdout.on('data', remember);
    this.child.stderr.on('data', remember);
    this.exited = new Promise((resolveExit) => {
      this.child.once('exit', (code, signal) => {
        this.exit = { code, signal };
        if (!this.stopping) log(`the ${role} process exited unexpectedly (code ${code}, signal ${signal})`);
        resolveExit(this.exit);
      });
    });
  }

  /** Resolves once the process has written a line matching `pattern` (start-up lines ignore LOG_LEVEL). */
  async waitForLine(pattern, timeoutMs = READY_TIMEOUT_MS) {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      if (this.exit) throw new Error(`the ${this.role} process exited during start-up (code ${this.exit.code})`);
      if (this.output.some((line) => pattern.test(line))) return;
      await sleep(100);
    }
    throw new Error(`the ${this.role} process did not log ${pattern} within ${timeoutMs / 1000} s`);
  }

  async stop() {
    if (this.exit) return;
    this.stopping = true;
    this.child.kill('SIGTERM');
    const timer = new Promise((resolveTimer) => setTimeout(() => resolveTimer('timeout'), STOP_TIMEOUT_MS).unref());
    if ((await Promise.race([this.exited, timer])) === 'timeout' && !this.exit) {
      log(`the ${this.role} process did not exit within ${STOP_TIMEOUT_MS / 1000} s of SIGTERM; sending SIGKILL`);
      this.child.kill('SIGKILL');
      await this.exited;
    }
  }

  printOutput(limit = 40) {
    if (!this.output.length) return;
    console.error(`--- last ${Math.min(limit, this.output.length)} line(s) from the ${this.role} process ---`);
    for (const line of this.output.slice(-limit)) console.error(line);
    console.error('---');
  }
}

/** JSON over HTTP to the service, 127.0.0.1 only. */
export class ApiClient {
  constructor(baseUrl) {
    this.baseUrl = baseUrl;
  }

  async call(method, path, { token, apiKey, body } = {}) {
    const headers = { accept: 'application/json' };
    if (token) headers.authorization = `Bearer ${token}`;
    if (apiKey) headers['x-api-key'] = apiKey;
    if (body !== undefined) headers['content-type'] = 'application/json';
    const response = await fetch(`${this.baseUrl}${path}`, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(10_000),
    });
    const text = await response.text();
    let json = null;
    try {
      json = text ? JSON.parse(text) : null;
    } catch {
      // not JSON; keep the text for the error message
    }
    return { status: response.status, headers: response.headers, json, text };
  }

  async expect(status, method, path, options) {
    const result = await this.call(method, path, options);
    if (result.status !== status) {
      throw new Error(`${method} ${path} answered ${result.status}, expected ${status}: ${result.text.slice(0, 500)}`);
    }
    return result;
  }

  async waitUntilReady(service) {
    const deadline = Date.now() + READY_TIMEOUT_MS;
    let last = 'no answer yet';
    while (Date.now() < deadline) {
      if (service.exit) throw new Error(`the service exited during start-up (code ${service.exit.code})`);
      try {
        const result = await this.call('GET', '/health/ready');
        if (result.status === 200) return;
        last = `${result.status} ${result.text.slice(0, 200)}`;
      } catch (error) {
        last = error.cause?.code ?? error.message;
      }
      await sleep(250);
    }
    throw new Error(`GET /health/ready was not 200 within ${READY_TIMEOUT_MS / 1000} s (last: ${last})`);
  }

  /** Signs in as the run's administrator and creates an API key with `scopes` whose rate limit is raised. */
  async adminKey(run, scopes) {
    const login = await this.expect(200, 'POST', '/api/v1/auth/login', {
      body: { email: run.adminEmail, password: run.adminPassword },
    });
    const token = login.json?.access_token;
    if (!token) throw new Error(`login returned no access_token: ${login.text.slice(0, 300)}`);
    const created = await this.expect(201, 'POST', '/api/v1/users/me/api-keys', {
      token,
      body: { name: 'bench', scopes },
    });
    const { id, secret } = created.json ?? {};
    if (!id || !secret) throw new Error(`creating an API key returned no id/secret: ${created.text.slice(0, 300)}`);
    await this.expect(200, 'PUT', `/api/v1/admin/api-keys/${id}/rate-limit`, {
      token,
      body: { requests_per_minute: 1_000_000 },
    });
    return { token, secret };
  }
}

/** One benchmark run's database, Redis prefix, artifact directory and service processes. */
export class BenchRun {
  constructor(settings) {
    this.settings = settings;
    this.id = randomBytes(6).toString('hex');
    this.dbName = `vigil_bench_${this.id}`;
    this.redisPrefix = `vigil_bench_${this.id}`;
    this.adminEmail = 'bench-admin@example.com';
    this.adminPassword = randomBytes(18).toString('base64url');
    this.jwtSecret = randomBytes(32).toString('hex');
    this.dir = mkdtempSync(join(tmpdir(), 'vigil-bench-'));
    this.processes = [];
    this.cleaned = null;
    const databaseUrl = new URL(settings.pgUrl);
    databaseUrl.pathname = `/${this.dbName}`;
    this.databaseUrl = databaseUrl.toString();
  }

  /** Starts a service process; `env` adds to or overrides the run's defaults (ROLE=all, LOG_LEVEL=warn). */
  start(env = {}, { nodeOptions = this.settings.nodeOptions } = {}) {
    const processEnv = {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      NODE_ENV: 'production',
      ROLE: 'all',
      DATABASE_URL: this.databaseUrl,
      REDIS_URL: this.settings.redisUrl,
      REDIS_PREFIX: this.redisPrefix,
      ADMIN_EMAIL: this.adminEmail,
      ADMIN_PASSWORD: this.adminPassword,
      JWT_SECRET: this.jwtSecret,
      LOG_LEVEL: 'warn',
      ARTIFACT_DIR: join(this.dir, 'artifacts'),
      // The default ceiling for sessions; the bench's API key gets its own raised ceiling through the admin API.
      RATE_LIMIT_PER_MINUTE: '1000000',
      ...(process.env.TMPDIR ? { TMPDIR: process.env.TMPDIR } : {}),
      ...(nodeOptions ? { NODE_OPTIONS: nodeOptions } : {}),
      ...env,
    };
    const service = new ServiceProcess(processEnv.ROLE, processEnv);
    this.processes.push(service);
    return service;
  }

  /** A client connected to the run's database (not the service's pool). */
  async database() {
    const client = new pg.Client({ connectionString: this.databaseUrl });
    await client.connect();
    return client;
  }

  printOutput(limit) {
    for (const service of this.processes) service.printOutput(limit);
  }

  /** Stops the processes, drops the database, removes the Redis keys and the directory; once, whatever failed. */
  cleanup() {
    this.cleaned ??= (async () => {
      await Promise.all(
        this.processes.map((service) =>
          service.stop().catch((error) => log(`cleanup: could not stop the ${service.role} process: ${error.message}`)),
        ),
      );
      const client = new pg.Client({ connectionString: this.settings.pgUrl, connectionTimeoutMillis: 5000 });
      try {
        await client.connect();
        await client.query(`drop database if exists "${this.dbName}" with (force)`);
        log(`cleanup: dropped database ${this.dbName}`);
      } catch (error) {
        log(`cleanup: could not drop database ${this.dbName}: ${error.message}`);
      } finally {
        await client.end().catch(() => undefined);
      }
      const redis = new Redis(this.settings.redisUrl, {
        lazyConnect: true,
        maxRetriesPerRequest: 1,
        connectTimeout: 5000,
      });
      redis.on('error', () => undefined);
      try {
        await redis.connect();
        let cursor = '0';
        let removed = 0;
        do {
          const [next, keys] = await redis.scan(cursor, 'MATCH', `${this.redisPrefix}:*`, 'COUNT', 1000);
          cursor = next;
          if (keys.length) removed += await redis.unlink(...keys);
        } while (cursor !== '0');
        log(`cleanup: removed ${removed} Redis key(s) under ${this.redisPrefix}:`);
      } catch (error) {
        log(`cleanup: could not remove Redis keys under ${this.redisPrefix}: ${error.message}`);
      } finally {
        redis.disconnect();
      }
      rmSync(this.dir, { recursive: true, force: true });
    })();
    return this.cleaned;
  }
}

/**
 * Runs `main` (which returns an exit code) with `cleanup` always after it, also on SIGINT/SIGTERM and when
 * `budgetMs` passes; then exits the process.
 */
export async function runBench(main, cleanup, { budgetMs, onFailure = () => undefined }) {
  for (const signal of ['SIGINT', 'SIGTERM']) {
    process.once(signal, () => {
      log(`${signal}: cleaning up`);
      cleanup().finally(() => process.exit(130));
    });
  }
  const watchdog = setTimeout(() => {
    log(`giving up after ${Math.round(budgetMs / 1000)} s`);
    onFailure();
    cleanup().finally(() => process.exit(1));
  }, budgetMs);
  watchdog.unref();
  let exitCode = 1;
  try {
    exitCode = await main();
  } catch (error) {
    log(`FAILED: ${error.stack ?? error.message}`);
    onFailure();
  } finally {
    await cleanup();
  }
  process.exit(exitCode);
}
