import { execFile, execFileSync } from 'node:child_process';
import { chmod, chown, mkdir, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const POSTGRES_LIB = '/usr/lib/postgresql';

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** The uid and gid of a system account, from /etc/passwd. */
async function account(name: string): Promise<{ uid: number; gid: number }> {
  const passwd = await readFile('/etc/passwd', 'utf8');
  const fields = passwd
    .split('\n')
    .map((line) => line.split(':'))
    .find((entry) => entry[0] === name);
  if (!fields) throw new Error(`no ${name} account: install Debian's postgresql package`);
  return { uid: Number(fields[2]), gid: Number(fields[3]) };
}

/**
 * A PostgreSQL cluster of its own for one test file, from Debian's binaries, in a temporary directory on a free port:
 * a test may stop and start it without touching the server every other test shares. As root, the cluster belongs to
 * the postgres account (initdb refuses root), as `npm start`'s local services do.
 */
export class PrivatePostgres {
  private exitHook = (): void => this.stopNow();

  private constructor(
    readonly directory: string,
    readonly port: number,
    private readonly bin: string,
    private readonly owner: { uid: number; gid: number } | null,
  ) {}

  static async create(): Promise<PrivatePostgres> {
    const versions = (await readdir(POSTGRES_LIB)).filter((name) => /^\d+$/.test(name));
    const newest = versions.sort((a, b) => Number(b) - Number(a))[0];
    if (!newest) throw new Error(`no PostgreSQL server binaries under ${POSTGRES_LIB}`);
    const parent = await mkdtemp(join(tmpdir(), 'vigil-chaos-postgres-'));
    // The server's account must reach its directory inside.
    await chmod(parent, 0o755);
    const directory = join(parent, 'data');
    await mkdir(directory, { mode: 0o700 });
    const owner = process.getuid?.() === 0 ? await account('postgres') : null;
    if (owner) await chown(directory, owner.uid, owner.gid);
    const cluster = new PrivatePostgres(directory, await freePort(), join(POSTGRES_LIB, newest, 'bin'), owner);
    // Even a test run that dies (a timeout, an exception in a hook) leaves no server behind.
    process.once('exit', cluster.exitHook);
    try {
      await cluster.tool('initdb', [
        '-D',
        directory,
        '-U',
        'postgres',
        '--auth=trust',
        '--encoding=UTF8',
        '--locale=C.UTF-8',
      ]);
      await cluster.start();
    } catch (error) {
      await cluster.destroy();
      throw error;
    }
    return cluster;
  }

  /** A URL of a database on this cluster. */
  url(database: string): string {
    return `postgres://postgres@127.0.0.1:${this.port}/${database}`;
  }

  /** Starts the server from its data; resolves once it accepts connections. */
  async start(): Promise<void> {
    // TCP on 127.0.0.1 only, no Unix socket; fsync off, as nothing here must outlive the machine.
    const options = `-p ${this.port} -c listen_addresses=127.0.0.1 -c unix_socket_directories='' -c fsync=off`;
    await this.tool('pg_ctl', ['start', '-D', this.directory, '-l', this.logFile, '-w', '-t', '60', '-o', options]);
  }

  /** Stops the server as an operator's restart does: active sessions are ended, open transactions roll back. */
  async stop(): Promise<void> {
    await this.tool('pg_ctl', ['stop', '-D', this.directory, '-m', 'fast', '-w', '-t', '60']);
  }

  /** The server's log, for a failure's message. */
  log(): Promise<string> {
    return readFile(this.logFile, 'utf8').catch(() => '');
  }

  /** Stops the server (at once, whatever it is doing) and removes its data. */
  async destroy(): Promise<void> {
    process.removeListener('exit', this.exitHook);
    this.stopNow();
    await rm(join(this.directory, '..'), { recursive: true, force: true });
  }

  private get logFile(): string {
    // Inside the data directory: the server's account may write only there.
    return join(this.directory, 'server.log');
  }

  private stopNow(): void {
    try {
      execFileSync(join(this.bin, 'pg_ctl'), ['stop', '-D', this.directory, '-m', 'immediate', '-w'], {
        cwd: '/',
        stdio: 'ignore',
        ...(this.owner ?? {}),
      });
    } catch {
      // Not running (never started, or stopped already).
    }
  }

  private async tool(name: string, args: string[]): Promise<void> {
    try {
      // From /, which the postgres account can enter (a project under /root it cannot).
      await run(join(this.bin, name), args, { cwd: '/', timeout: 90_000, ...(this.owner ?? {}) });
    } catch (error) {
      const said = (error as { stderr?: string }).stderr?.trim();
      throw new Error(`${name} ${args[0]} failed: ${said || (error as Error).message}\n${await this.log()}`);
    }
  }
}
