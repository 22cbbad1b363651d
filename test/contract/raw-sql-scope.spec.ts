import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { MikroORM } from '@mikro-orm/postgresql';
import { ormConfig } from '../../src/db/orm.config';
import { WORKSPACE_FILTER } from '../../src/common/tenancy/workspace-scope';
import { User } from '../../src/users/user.entity';
import { Workspace } from '../../src/workspaces/entities/workspace.entity';
import { WorkspaceMember } from '../../src/workspaces/entities/workspace-member.entity';
import { Setting } from '../../src/db/setting.entity';
import { type RawStatement, rawStatements } from '../support/raw-sql';

const ROOT = join(__dirname, '..', '..');

/**
 * Raw statements on a workspace's tables that do not restrict themselves with `inWorkspace`, per file, with how many
 * there are and why each needs none. Adding one, or a file, fails until it is named here with its reason.
 */
const UNSCOPED_ALLOWED: Record<string, { statements: number; reason: string }> = {
  'src/api-keys/api-keys.service.ts': { statements: 1, reason: 'authenticating a key is what finds its workspace' },
  'src/common/idempotency/idempotency.store.ts': {
    statements: 5,
    reason:
      'rows are found by scope_hash, a hash of the workspace, caller and route: only their own requests find them',
  },
  'src/alerts/outbox-relay.ts': { statements: 1, reason: 'the relay turns every workspace’s events into deliveries' },
  'src/alerts/delivery-claims.ts': { statements: 3, reason: 'delivery workers claim and record every workspace’s' },
  'src/status-pages/subscribers/subscriber-notifier.ts': {
    statements: 1,
    reason: 'the notifier claims the due notification of any workspace, then sends it in that workspace',
  },
  'src/metrics/metrics.service.ts': {
    statements: 2,
    reason: "/metrics counts deliveries and reads every monitor's certificate expiry across the instance",
  },
  'src/artifacts/artifact-retention.ts': { statements: 5, reason: 'retention prunes old files of every workspace' },
  'src/monitors/monitor-scheduler.ts': { statements: 3, reason: 'the scheduler claims due checks of every workspace' },
  'src/monitors/routine-check-writer.ts': {
    statements: 1,
    reason: 'writes a batch of checks from many workspaces, each row keyed by its own monitor',
  },
  'src/monitors/monitor-check-recorder.ts': {
    statements: 1,
    reason:
      'a check job (or a batch of pings, by their secret tokens) reads its own monitor(s) to learn the workspace, then works in it',
  },
};

/** Every raw statement in the service's source, and the tables of a workspace (roots and their children). */
async function survey(): Promise<{ statements: RawStatement[]; scopedTables: Set<string> }> {
  const files = execFileSync('git', ['ls-files', 'src/*.ts'], { cwd: ROOT, encoding: 'utf8' })
    .split('\n')
    .filter((file) => file && !file.endsWith('.spec.ts'));
  const statements = files.flatMap((file) =>
    rawStatements(join(ROOT, file)).map((statement) => ({ ...statement, file })),
  );
  const orm = await MikroORM.init(ormConfig(process.env.DATABASE_URL!));
  try {
    const instanceLevel = new Set([User.name, Workspace.name, WorkspaceMember.name, Setting.name]);
    const scopedTables = new Set(
      [...orm.getMetadata().getAll().values()]
        .filter((meta) => !meta.embeddable && !meta.virtual && !instanceLevel.has(meta.className))
        .map((meta) => meta.tableName),
    );
    // The filter is what the roots carry; the check below relies on it being the one named here.
    expect([...orm.getMetadata().getAll().values()].some((meta) => WORKSPACE_FILTER in meta.filters)).toBe(true);
    return { statements, scopedTables };
  } finally {
    await orm.close(true);
  }
}

const unscopedOnWorkspaceData = (statements: RawStatement[], scopedTables: Set<string>) =>
  statements.filter((statement) => !statement.scoped && statement.tables.some((table) => scopedTables.has(table)));

describe('raw SQL on a workspace’s data is scoped like the ORM filter (decision 0006)', () => {
  let statements: RawStatement[];
  let scopedTables: Set<string>;

  beforeAll(async () => {
    ({ statements, scopedTables } = await survey());
  });

  it('finds the raw statements and the workspace tables it checks against', () => {
    expect(statements.length).toBeGreaterThan(30);
    expect(scopedTables).toEqual(expect.objectContaining({ size: expect.any(Number) }));
    for (const table of ['monitors', 'monitor_check_rollups', 'crawl_urls', 'report_runs', 'release_checks']) {
      expect(scopedTables.has(table)).toBe(true);
    }
    expect(scopedTables.has('users')).toBe(false);
  });

  it('every raw statement naming a workspace table uses inWorkspace, or is allowed here with its reason', () => {
    const perFile = new Map<string, number>();
    for (const statement of unscopedOnWorkspaceData(statements, scopedTables)) {
      perFile.set(statement.file, (perFile.get(statement.file) ?? 0) + 1);
    }
    const allowed = Object.fromEntries(
      Object.entries(UNSCOPED_ALLOWED).map(([file, { statements: count }]) => [file, count]),
    );
    expect(Object.fromEntries(perFile)).toEqual(allowed);
  });

  it('fails a statement that queries a workspace table without the workspace (the check itself)', () => {
    const source = `
      async function leaky(em) {
        return em.execute('select * from monitor_check_rollups where monitor_id = ?', [id]);
      }
      async function scoped(em) {
        return em.execute(\`select * from monitor_check_rollups r
          join monitors m on m.id = r.monitor_id and \${inWorkspace(em, 'm.workspace_id')} where r.monitor_id = ?\`, [id]);
      }
      async function notRaw(query) {
        return query.execute();
      }`;
    const found = rawStatements('example.ts', source);
    expect(found.map((statement) => statement.scoped)).toEqual([false, true]);
    expect(unscopedOnWorkspaceData(found, scopedTables).map((statement) => statement.line)).toEqual([3]);
  });
});
