import { execFile } from 'node:child_process';
import { chmod, mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Redis } from 'ioredis';
import { Client } from 'pg';
import { debianClusterOn, isReachable } from '../../src/bootstrap/local-services';
import { preflight } from '../../src/bootstrap/preflight';
import { type AppConfig, loadConfig } from '../../src/config/app-config';
import { testConfig } from '../support/test-app';

const run = promisify(execFile);

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/**
 * `npm start` on a machine where PostgreSQL and Redis are installed (Debian's packages, as the setup would install
 * them) but not running: the preflight starts both from the data directory on the configured ports. Free ports and a
 * temporary data directory keep the machine's own servers out of it.
 */
describe('preflight on a machine without PostgreSQL or Redis running', () => {
  let dataDir: string;
  let config: AppConfig;
  let lines: string[];
  const options = () => ({ dataDir, log: (line: string) => lines.push(line) });

  async function stopStartedServices(): Promise<void> {
    const postgres = join(dataDir, 'postgres');
    const version = await readFile(join(postgres, 'PG_VERSION'), 'utf8').catch(() => null);
    if (version) {
      // As the account that owns the cluster (postgres, when the test runs as root), as pg_ctl requires.
      const { uid, gid } = await stat(postgres);
      await run(`/usr/lib/postgresql/${version.trim()}/bin/pg_ctl`, ['stop', '-D', postgres, '-m', 'fast', '-w'], {
        uid,
        gid,
        cwd: '/',
      }).catch(() => undefined);
    }
    const redisPort = new URL(config.redisUrl).port;
    await run('redis-cli', ['-h', '127.0.0.1', '-p', redisPort, 'shutdown', 'nosave']).catch(() => undefined);
  }

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'vigil-data-'));
    // The servers run as their own accounts, which must reach their directories inside.
    await chmod(dataDir, 0o755);
    config = loadConfig({
      DATABASE_URL: `postgres://postgres@127.0.0.1:${await freePort()}/vigil_local`,
      REDIS_URL: `redis://127.0.0.1:${await freePort()}`,
      MIGRATE_ON_START: 'true',
    });
  });
  beforeEach(() => (lines = []));
  afterAll(async () => {
    await stopStartedServices();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('installs and starts nothing when both answer where configured, or are configured on another host', async () => {
    await preflight(testConfig(), options());
    await expect(
      preflight(
        loadConfig({ DATABASE_URL: 'postgres://postgres@db.invalid:5432/vigil', REDIS_URL: 'redis://127.0.0.1:6379' }),
        options(),
      ),
    ).rejects.toThrow('cannot prepare PostgreSQL at postgres://postgres@db.invalid:5432/vigil (ENOTFOUND)');
    expect(lines).toEqual([]);
    expect(await readdir(dataDir)).toEqual([]);
  });

  it('initialises and starts PostgreSQL and Redis from the installed binaries, then migrates', async () => {
    const postgresAt = new URL(config.databaseUrl);
    const redisAt = new URL(config.redisUrl);
    expect(await isReachable({ host: '127.0.0.1', port: Number(postgresAt.port) })).toBe(false);
    expect(await isReachable({ host: '127.0.0.1', port: Number(redisAt.port) })).toBe(false);

    await preflight(config, options());

    // Installed already, so no apt-get: initialised, started, and the database created and migrated.
    expect(lines).toEqual([
      expect.stringMatching(/^initialised PostgreSQL \d+ in .*postgres \(trust authentication, local only\)$/),
      expect.stringContaining(`started PostgreSQL`),
      expect.stringContaining(`started Redis on 127.0.0.1:${redisAt.port}`),
    ]);
    expect(lines[1]).toContain(`on 127.0.0.1:${postgresAt.port} with its data in ${join(dataDir, 'postgres')}`);

    const database = new Client({ connectionString: config.databaseUrl });
    await database.connect();
    try {
      const { rows } = await database.query<{ directory: string; migrations: number }>(
        `select current_setting('data_directory') as directory, (select count(*)::int from mikro_orm_migrations) as migrations`,
      );
      expect(rows[0].directory).toBe(join(dataDir, 'postgres'));
      expect(rows[0].migrations).toBeGreaterThan(0);
    } finally {
      await database.end();
    }
    const redis = new Redis(config.redisUrl);
    try {
      expect(await redis.config('GET', 'dir')).toEqual(['dir', join(dataDir, 'redis')]);
    } finally {
      redis.disconnect();
    }
    if (process.getuid?.() === 0) {
      // initdb refuses root: the cluster is the postgres account's, and Redis runs as redis, as Debian's services do.
      const passwd = await readFile('/etc/passwd', 'utf8');
      const uidOf = (name: string) =>
        Number(
          passwd
            .split('\n')
            .find((line) => line.startsWith(`${name}:`))
            ?.split(':')[2],
        );
      expect((await stat(join(dataDir, 'postgres'))).uid).toBe(uidOf('postgres'));
      expect((await stat(join(dataDir, 'redis'))).uid).toBe(uidOf('redis'));
    }
  });

  it('finds them running at the next start, and starts nothing', async () => {
    await preflight(config, options());
    expect(lines).toEqual([]);
  });

  it('starts them again from their data after they stopped, without initialising anew', async () => {
    await stopStartedServices();
    expect(await isReachable({ host: '127.0.0.1', port: Number(new URL(config.databaseUrl).port) })).toBe(false);

    await preflight(config, options());

    expect(lines).toEqual([expect.stringContaining('started PostgreSQL'), expect.stringContaining('started Redis')]);
    const database = new Client({ connectionString: config.databaseUrl });
    await database.connect();
    try {
      const { rows } = await database.query<{ migrations: number }>(
        'select count(*)::int as migrations from mikro_orm_migrations',
      );
      expect(rows[0].migrations).toBeGreaterThan(0);
    } finally {
      await database.end();
    }
  });

  it('leaves a privileged port alone: the servers’ accounts could not listen there', async () => {
    const privileged = loadConfig({
      DATABASE_URL: 'postgres://postgres@127.0.0.1:1/vigil',
      REDIS_URL: config.redisUrl,
    });
    await expect(preflight(privileged, options())).rejects.toThrow(
      'cannot prepare PostgreSQL at postgres://postgres@127.0.0.1:1/vigil (ECONNREFUSED)',
    );
    expect(lines).toEqual([]);
  });
});

describe("Debian's own PostgreSQL clusters", () => {
  it('are found by the port they are set to, so a stopped one is started rather than replaced', async () => {
    const clusters = await mkdtemp(join(tmpdir(), 'vigil-clusters-'));
    try {
      const cluster = async (version: string, name: string, settings: string) => {
        await mkdir(join(clusters, version, name), { recursive: true });
        await writeFile(join(clusters, version, name, 'postgresql.conf'), settings);
      };
      await cluster('15', 'main', "listen_addresses = 'localhost'\nport = 5433\t\t# (change requires restart)\n");
      await cluster('16', 'main', '#port = 5432\n');
      await mkdir(join(clusters, '17', 'half-removed'), { recursive: true });

      expect(await debianClusterOn(5433, clusters)).toEqual({ version: '15', name: 'main' });
      // No port line: PostgreSQL's default.
      expect(await debianClusterOn(5432, clusters)).toEqual({ version: '16', name: 'main' });
      expect(await debianClusterOn(5434, clusters)).toBeNull();
      expect(await debianClusterOn(5432, join(clusters, 'none'))).toBeNull();
    } finally {
      await rm(clusters, { recursive: true, force: true });
    }
  });
});
