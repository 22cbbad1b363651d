import { execFile } from 'node:child_process';
import { constants } from 'node:fs';
import { access, chmod, chown, mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { connect } from 'node:net';
import { basename, join, relative, resolve } from 'node:path';
import type { AppConfig } from '../config/app-config';
import { redact } from '../db/database';
import { StartupError } from './startup-error';

export interface LocalServicesOptions {
  /** Started services keep their data here: `<dataDir>/postgres`, `<dataDir>/redis`. */
  dataDir: string;
  /** One line for the operator per step taken. */
  log: (line: string) => void;
}

const POSTGRES_LIB = '/usr/lib/postgresql';
const POSTGRES_CLUSTERS = '/etc/postgresql';
const REDIS_SERVER = '/usr/bin/redis-server';
/**
 * Read by the postgresql package's postinst: without it, installing the package creates and starts a cluster of its
 * own on 5432 (password authentication over TCP), which would take the port from the one started here.
 */
const NO_MAIN_CLUSTER = '/etc/postgresql-common/createcluster.d/vigil.conf';
/** Minimal and fixed: nothing of the caller's environment reaches the servers. */
const CHILD_ENV = { PATH: '/usr/sbin:/usr/bin:/sbin:/bin', LC_ALL: 'C.UTF-8' };

interface Endpoint {
  host: string;
  port: number;
}

interface Account {
  uid: number;
  gid: number;
}

function run(
  file: string,
  args: string[],
  options: { as?: Account | null; env?: Record<string, string>; timeoutMs?: number } = {},
): Promise<string> {
  return new Promise((resolvePromise, reject) => {
    execFile(
      file,
      args,
      {
        // Anywhere the service's account may not enter (a project under /root) would fail its tools.
        cwd: '/',
        env: { ...CHILD_ENV, ...options.env },
        timeout: options.timeoutMs ?? 120_000,
        maxBuffer: 16 * 1024 * 1024,
        ...(options.as ? { uid: options.as.uid, gid: options.as.gid } : {}),
      },
      (error, stdout, stderr) => {
        if (!error) return resolvePromise(stdout);
        const said = `${stderr}`.trim().split('\n').slice(-3).join(' ').trim();
        reject(new Error(`${basename(file)} failed: ${said || error.message}`));
      },
    );
  });
}

async function isExecutable(path: string): Promise<boolean> {
  return access(path, constants.X_OK).then(
    () => true,
    () => false,
  );
}

function endpointOf(url: string, defaultPort: number): Endpoint {
  const parsed = new URL(url);
  return { host: parsed.hostname.replace(/^\[(.*)\]$/, '$1'), port: Number(parsed.port || defaultPort) };
}

/** Only a server on this machine is ours to install and start; another host is the operator's. */
function isLocal({ host }: Endpoint): boolean {
  return host === 'localhost' || host === '::1' || /^127\.\d+\.\d+\.\d+$/.test(host);
}

/** Whether something accepts connections there (whether it is the right server is for the real checks to say). */
export function isReachable({ host, port }: Endpoint, timeoutMs = 1000): Promise<boolean> {
  return new Promise((resolvePromise) => {
    const socket = connect({ host, port });
    const done = (reachable: boolean) => {
      socket.destroy();
      resolvePromise(reachable);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

async function untilReachable(endpoint: Endpoint, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await isReachable(endpoint)) return true;
    await new Promise((resolvePromise) => setTimeout(resolvePromise, 100));
  }
  return false;
}

/** A system account from /etc/passwd (the Debian packages create `postgres` and `redis`). */
async function systemAccount(name: string): Promise<Account | null> {
  const passwd = await readFile('/etc/passwd', 'utf8').catch(() => '');
  const fields = passwd
    .split('\n')
    .map((line) => line.split(':'))
    .find((entry) => entry[0] === name);
  return fields ? { uid: Number(fields[2]), gid: Number(fields[3]) } : null;
}

const isRoot = (): boolean => process.getuid?.() === 0;

/** The newest PostgreSQL whose server binaries are installed, or the one a data directory was made by. */
async function postgresBinaries(version?: string): Promise<{ version: string; bin: string } | null> {
  const versions = version
    ? [version]
    : (await readdir(POSTGRES_LIB).catch(() => [] as string[]))
        .filter((name) => /^\d+$/.test(name))
        .sort((a, b) => Number(b) - Number(a));
  for (const candidate of versions) {
    const bin = join(POSTGRES_LIB, candidate, 'bin');
    if ((await isExecutable(join(bin, 'initdb'))) && (await isExecutable(join(bin, 'pg_ctl')))) {
      return { version: candidate, bin };
    }
  }
  return null;
}

/**
 * A cluster of Debian's own tools (pg_createcluster) set to this port, as `{version, name}`: one that exists and is
 * stopped holds the operator's data, so it is started, never replaced by a new one.
 */
export async function debianClusterOn(
  port: number,
  clustersDir = POSTGRES_CLUSTERS,
): Promise<{ version: string; name: string } | null> {
  for (const version of (await readdir(clustersDir).catch(() => [] as string[])).sort()) {
    for (const name of (await readdir(join(clustersDir, version)).catch(() => [] as string[])).sort()) {
      const settings = await readFile(join(clustersDir, version, name, 'postgresql.conf'), 'utf8').catch(() => null);
      if (settings === null) continue;
      const configured = /^[ \t]*port[ \t]*=[ \t]*'?(\d+)/m.exec(settings)?.[1] ?? '5432';
      if (Number(configured) === port) return { version, name };
    }
  }
  return null;
}

interface LocalService {
  name: string;
  /** The Debian package that provides it. */
  debianPackage: string;
  setting: string;
  url: string;
  endpoint: Endpoint;
  isInstalled(): Promise<boolean>;
  /** Starts it from its directory under the data directory; resolves once it accepts connections. */
  start(dataDir: string, log: (line: string) => void): Promise<void>;
}

function postgresService(config: AppConfig): LocalService {
  const url = new URL(config.databaseUrl);
  const endpoint = endpointOf(config.databaseUrl, 5432);
  return {
    name: 'PostgreSQL',
    debianPackage: 'postgresql',
    setting: 'DATABASE_URL',
    url: redact(config.databaseUrl),
    endpoint,
    isInstalled: async () => (await postgresBinaries()) !== null,
    async start(dataDir, log) {
      const cluster = await debianClusterOn(endpoint.port);
      if (cluster) {
        const command = `pg_ctlcluster ${cluster.version} ${cluster.name} start`;
        if (!isRoot())
          throw new Error(`Debian's cluster ${cluster.version}/${cluster.name} is set to this port: ${command}`);
        await run('/usr/bin/pg_ctlcluster', [cluster.version, cluster.name, 'start']);
        log(`started Debian's PostgreSQL cluster ${cluster.version}/${cluster.name} on port ${endpoint.port}`);
        return;
      }
      const directory = join(dataDir, 'postgres');
      // initdb refuses to run as root: as root, the cluster belongs to the package's postgres account.
      const owner = isRoot() ? await systemAccount('postgres') : null;
      if (isRoot() && !owner) throw new Error('the postgres account is missing; reinstall the postgresql package');
      await ownDirectory(directory, 0o700, owner);
      const madeBy = await readFile(join(directory, 'PG_VERSION'), 'utf8').then(
        (text) => text.trim(),
        () => null,
      );
      const binaries = await postgresBinaries(madeBy ?? undefined);
      if (!binaries) throw new Error(`${directory} was made by PostgreSQL ${madeBy}, whose binaries are not installed`);
      if (!madeBy) {
        const user = decodeURIComponent(url.username) || 'postgres';
        await run(
          join(binaries.bin, 'initdb'),
          ['-D', directory, '-U', user, '--auth=trust', '--encoding=UTF8', '--locale=C.UTF-8'],
          { as: owner },
        );
        log(`initialised PostgreSQL ${binaries.version} in ${shown(directory)} (trust authentication, local only)`);
      }
      // TCP on the configured address and port only; no Unix socket, so nothing depends on /var/run/postgresql.
      const listen = endpoint.host === 'localhost' ? 'localhost' : endpoint.host;
      const serverOptions = `-p ${endpoint.port} -c listen_addresses='${listen}' -c unix_socket_directories=''`;
      const serverLog = join(directory, 'server.log');
      const pgCtl = ['start', '-D', directory, '-l', serverLog, '-w', '-t', '60', '-o', serverOptions];
      await run(join(binaries.bin, 'pg_ctl'), pgCtl, { as: owner }).catch(async (error: Error) => {
        const said = (await readFile(serverLog, 'utf8').catch(() => '')).trim().split('\n').slice(-2).join(' ');
        throw new Error(`${error.message}${said ? `; its log says: ${said}` : ''}`);
      });
      log(
        `started PostgreSQL ${binaries.version} on ${endpoint.host}:${endpoint.port} with its data in ` +
          `${shown(directory)} (stop: ${binaries.bin}/pg_ctl stop -D ${directory}${owner ? ', as postgres' : ''})`,
      );
    },
  };
}

function redisService(config: AppConfig): LocalService {
  const url = new URL(config.redisUrl);
  const endpoint = endpointOf(config.redisUrl, 6379);
  return {
    name: 'Redis',
    debianPackage: 'redis-server',
    setting: 'REDIS_URL',
    url: redact(config.redisUrl),
    endpoint,
    isInstalled: () => isExecutable(REDIS_SERVER),
    async start(dataDir, log) {
      const directory = join(dataDir, 'redis');
      // As root, it runs as the package's redis account, like Debian's own service.
      const owner = isRoot() ? await systemAccount('redis') : null;
      await ownDirectory(directory, 0o750, owner);
      const bind = endpoint.host === 'localhost' ? ['127.0.0.1', '-::1'] : [endpoint.host];
      const password = decodeURIComponent(url.password);
      await run(
        REDIS_SERVER,
        [
          ...['--daemonize', 'yes', '--dir', directory, '--port', String(endpoint.port), '--bind', ...bind],
          ...['--pidfile', join(directory, 'redis.pid'), '--logfile', join(directory, 'redis.log')],
          ...(password ? ['--requirepass', password] : []),
        ],
        { as: owner },
      );
      // Daemonized: the command returns before the server listens.
      if (!(await untilReachable(endpoint, 10_000))) {
        throw new Error(`it did not listen within 10 s; see ${join(directory, 'redis.log')}`);
      }
      log(
        `started Redis on ${endpoint.host}:${endpoint.port} with its data in ${shown(directory)} ` +
          `(stop: redis-cli -p ${endpoint.port} shutdown)`,
      );
    },
  };
}

/**
 * The service's directory, its own and closed to others. The data directory above it is made traversable (0755,
 * as mkdir leaves it), so the service's account can reach its directory.
 */
async function ownDirectory(directory: string, mode: number, owner: Account | null): Promise<void> {
  await mkdir(join(directory, '..'), { recursive: true });
  await mkdir(directory, { recursive: true });
  if (owner) await chown(directory, owner.uid, owner.gid);
  await chmod(directory, mode);
}

function shown(path: string): string {
  const fromHere = relative(process.cwd(), path);
  return fromHere && !fromHere.startsWith('..') ? fromHere : path;
}

/** Installs Debian packages as the setup script installs Chromium: apt-get, non-interactive, no recommends. */
async function installPackages(packages: string[]): Promise<void> {
  if (packages.includes('postgresql')) {
    await mkdir(join(NO_MAIN_CLUSTER, '..'), { recursive: true });
    await writeFile(
      NO_MAIN_CLUSTER,
      '# Written by vigil: its start runs a cluster of its own.\ncreate_main_cluster = false\n',
    );
  }
  const env = { DEBIAN_FRONTEND: 'noninteractive' };
  await run('apt-get', ['update', '-qq'], { env, timeoutMs: 600_000 });
  await run('apt-get', ['install', '-y', '-qq', '--no-install-recommends', ...packages], { env, timeoutMs: 1_800_000 });
}

/**
 * PostgreSQL and Redis for a machine that has neither: each one that is configured on this machine and does not
 * answer there is installed (Debian's package, when running as root) and started from the data directory. One
 * that answers, or is configured on another host, is left alone. A privileged port (below 1024) is left alone too:
 * the servers run as their own accounts, which cannot listen there.
 */
export async function ensureLocalServices(config: AppConfig, options: LocalServicesOptions): Promise<void> {
  const needed: LocalService[] = [];
  for (const service of [postgresService(config), redisService(config)]) {
    if (!isLocal(service.endpoint) || service.endpoint.port < 1024) continue;
    if (!(await isReachable(service.endpoint))) needed.push(service);
  }
  if (!needed.length) return;

  const missing: LocalService[] = [];
  for (const service of needed) if (!(await service.isInstalled())) missing.push(service);
  if (missing.length) {
    const packages = missing.map((service) => service.debianPackage);
    if (!isRoot() || !(await isExecutable('/usr/bin/apt-get'))) {
      const names = missing.map((service) => `${service.name} at ${service.url}`).join(' and ');
      const both = missing.length > 1;
      throw new StartupError(
        `cannot reach ${names}, and ${both ? 'neither is' : 'it is not'} installed: run npm start as root to ` +
          `install Debian's ${packages.join(' and ')}, or install ${both ? 'them' : 'it'} (sudo apt-get install -y ` +
          `${packages.join(' ')}), or set ${missing.map((service) => service.setting).join(' / ')}`,
      );
    }
    options.log(`installing Debian packages: ${packages.join(' ')}`);
    try {
      await installPackages(packages);
    } catch (error) {
      throw new StartupError(`cannot install ${packages.join(' and ')} (${(error as Error).message})`);
    }
  }

  const dataDir = resolve(options.dataDir);
  for (const service of needed) {
    // The package may have started its own server (Debian's redis-server does, under systemd).
    if (await isReachable(service.endpoint)) continue;
    try {
      await service.start(dataDir, options.log);
    } catch (error) {
      throw new StartupError(
        `cannot start ${service.name} for ${service.url} (${(error as Error).message}): start it, or set ${service.setting}`,
      );
    }
  }
}
