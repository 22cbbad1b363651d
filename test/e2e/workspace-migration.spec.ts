import 'reflect-metadata';
import { randomBytes, randomUUID } from 'node:crypto';
import { MikroORM } from '@mikro-orm/postgresql';
import { Client, escapeIdentifier } from 'pg';
import { ensureDatabase } from '../../src/db/database';
import { ormConfig } from '../../src/db/orm.config';

/** The last migration of the schema before workspaces, where every resource belonged to one user. */
const LAST_OLD_MIGRATION = 'Migration20261122202940';

/** Tables that held a `user_id` owner before and are moved into workspaces by the migration. */
const OWNED_TABLES = ['api_keys', 'monitors', 'changes', 'release_checks'] as const;
type OwnedTable = (typeof OWNED_TABLES)[number];

/** Tables whose rows the migration must keep, every one of them. */
const ALL_TABLES = [
  'users',
  ...OWNED_TABLES,
  'monitor_checks',
  'monitor_check_rollups',
  'tracked_value_readings',
  'release_check_artifacts',
  'release_check_reviews',
] as const;
type Table = (typeof ALL_TABLES)[number];

/** Columns the migration removes (before) and adds (after): every other value of every row must stay the same. */
const REMOVED_COLUMNS: Partial<Record<Table, string[]>> = {
  users: ['plan'],
  api_keys: ['user_id'],
  monitors: ['user_id'],
  changes: ['user_id'],
  release_checks: ['user_id'],
};
const ADDED_COLUMNS: Partial<Record<Table, string[]>> = {
  api_keys: ['workspace_id', 'created_by_id'],
  // And, from later migrations: what a monitor learned moves and its visual threshold (Migration20261127143315).
  // And Migration20261128005216: its response assertions; Migration20261128030144: the certificate it was served;
  // Migration20261128032318: heartbeats. Migration20261128100542: maintenance in checks and rollups;
  // Migration20261128101618: a monitor's parent. Migration20261128215657: a check's failed assertions.
  // Migration20261128222052: the key of the declaration managing it.
  monitors: [
    'workspace_id',
    'created_by_id',
    'visual_threshold',
    'volatile',
    'metadata',
    'assertions',
    'certificate',
    'heartbeat',
    'heartbeat_token',
    'heartbeat_pinged_at',
    'heartbeat_started_at',
    'parent_id',
    'declaration_key',
  ],
  monitor_checks: ['certificate', 'maintenance_window_id', 'failed_assertions'],
  monitor_check_rollups: ['maintenance'],
  changes: ['workspace_id', 'visual', 'metadata', 'diff_screenshot_key'],
  // Migration20261127225317: a release check's source.
  release_checks: ['workspace_id', 'opened_by_id', 'opened_by_key_id', 'source'],
  // Migration20261127144941: pair decisions and fingerprints, and each review's pairs.
  release_check_artifacts: ['fingerprint', 'decision'],
  release_check_reviews: ['pairs'],
};

type Person = 'a' | 'b' | 'c';
const PEOPLE: Record<Person, { id: string; email: string; plan: string }> = {
  a: { id: randomUUID(), email: 'ada@example.com', plan: 'team' },
  b: { id: randomUUID(), email: 'bob@example.com', plan: 'free' },
  c: { id: randomUUID(), email: 'cy@example.com', plan: 'free' },
};

/** The same request key for A's and B's release checks: allowed per user before, and per workspace after. */
const SHARED_REQUEST_KEY = 'deploy-2026-11-24';

/**
 * Workspaces (Migration20261124222514) on data of the schema before them: a database of this file's own is migrated
 * up to the old schema, filled with plain SQL, then migrated the rest of the way.
 */
describe('moving users’ data into personal workspaces', () => {
  let databaseName: string;
  let maintenanceUrl: string;
  let orm: MikroORM | undefined;
  let db: Client | undefined;
  /** Former owner of each api key, monitor, change and release check, by id. */
  const owners: Record<OwnedTable, Record<string, Person>> = {
    api_keys: {},
    monitors: {},
    changes: {},
    release_checks: {},
  };
  let rowsBefore: Record<Table, unknown[]>;

  beforeAll(async () => {
    // The file's database (the run's name plus a suffix) plus another suffix: global teardown drops it if we cannot.
    const url = new URL(process.env.DATABASE_URL!);
    databaseName = `${decodeURIComponent(url.pathname.slice(1))}_mig_${randomBytes(3).toString('hex')}`;
    url.pathname = `/${databaseName}`;
    const maintenance = new URL(url);
    maintenance.pathname = '/postgres';
    maintenanceUrl = maintenance.toString();

    await ensureDatabase(url.toString());
    orm = await MikroORM.init(ormConfig(url.toString()));
    const applied = await orm.migrator.up({ to: LAST_OLD_MIGRATION });
    expect(applied.at(-1)?.name).toBe(LAST_OLD_MIGRATION);

    db = new Client({ connectionString: url.toString() });
    await db.connect();
    await insertOldData(db);
    rowsBefore = await snapshot(db, REMOVED_COLUMNS);

    await orm.migrator.up();
  });

  afterAll(async () => {
    await db?.end();
    await orm?.close(true);
    if (!databaseName) return;
    const client = new Client({ connectionString: maintenanceUrl });
    await client.connect();
    try {
      await client.query(`drop database if exists ${escapeIdentifier(databaseName)} with (force)`);
    } finally {
      await client.end();
    }
  });

  /** A jsonb value: pg would send a plain array as a Postgres array. */
  function json(value: unknown): { toPostgres(): string } {
    return { toPostgres: () => JSON.stringify(value) };
  }

  async function insert(client: Client, table: string, row: Record<string, unknown>): Promise<void> {
    const columns = Object.keys(row);
    await client.query(
      `insert into ${escapeIdentifier(table)} (${columns.map((column) => escapeIdentifier(column)).join(', ')}) values (${columns.map((_, i) => `$${i + 1}`).join(', ')})`,
      Object.values(row),
    );
  }

  async function insertOldData(client: Client): Promise<void> {
    const now = new Date('2026-11-20T12:00:00Z');
    for (const person of Object.values(PEOPLE)) {
      await insert(client, 'users', {
        id: person.id,
        email: person.email,
        password_hash: `hash-of-${person.email}`,
        role: person === PEOPLE.a ? 'admin' : 'member',
        plan: person.plan,
        created_at: now,
      });
    }

    async function apiKey(owner: Person, name: string): Promise<void> {
      const id = randomUUID();
      owners.api_keys[id] = owner;
      await insert(client, 'api_keys', {
        id,
        user_id: PEOPLE[owner].id,
        name,
        prefix: `vk_${randomBytes(4).toString('hex')}`,
        secret_hash: randomBytes(16).toString('hex'),
        scopes: ['monitors:read', 'release-checks:write'],
        created_at: now,
        rate_limit_per_minute: 60,
      });
    }

    async function monitor(owner: Person, name: string): Promise<string> {
      const id = randomUUID();
      owners.monitors[id] = owner;
      await insert(client, 'monitors', {
        id,
        user_id: PEOPLE[owner].id,
        name,
        url: `https://${name}.example.com/`,
        regions: ['eu', 'us'],
        tracked_values: json([{ name: 'price', selector: '.price', kind: 'price' }]),
        region_status: json({ eu: 'up', us: 'up' }),
        badge_token: randomBytes(8).toString('hex'),
        tracked_state: json({}),
        created_at: now,
        updated_at: now,
      });
      for (const [hour, region] of [
        [10, 'eu'],
        [10, 'us'],
        [11, 'eu'],
      ] as const) {
        const checkId = randomUUID();
        const at = new Date(Date.UTC(2026, 10, 20, hour, 5));
        await insert(client, 'monitor_checks', {
          id: checkId,
          monitor_id: id,
          region,
          trigger: 'schedule',
          scheduled_for: at,
          checked_at: at,
          ok: true,
          status_code: 200,
          response_time_ms: 120 + hour,
        });
        await insert(client, 'tracked_value_readings', {
          id: randomUUID(),
          monitor_id: id,
          check_id: checkId,
          name: 'price',
          kind: 'price',
          raw: '€12.50',
          amount: 12.5,
          currency: 'EUR',
          region,
          captured_at: at,
        });
        await insert(client, 'monitor_check_rollups', {
          monitor_id: id,
          region,
          hour: new Date(Date.UTC(2026, 10, 20, hour)),
          checks: 12,
          passed: 11,
          response_ms_sum: 1440,
        });
      }
      return id;
    }

    async function change(owner: Person, monitorId: string): Promise<void> {
      const id = randomUUID();
      owners.changes[id] = owner;
      await insert(client, 'changes', {
        id,
        user_id: PEOPLE[owner].id,
        monitor_id: monitorId,
        kind: 'content',
        region: 'eu',
        check_id: randomUUID(),
        detected_at: now,
        summary: json({ added: 1, removed: 0 }),
        diff: json([{ op: 'add', text: 'new line' }]),
      });
    }

    async function releaseCheck(owner: Person): Promise<string> {
      const id = randomUUID();
      owners.release_checks[id] = owner;
      await insert(client, 'release_checks', {
        id,
        user_id: PEOPLE[owner].id,
        name: `release of ${owner}`,
        request_key: SHARED_REQUEST_KEY,
        request_hash: randomBytes(16).toString('hex'),
        production_url: 'https://www.example.com',
        preview_url: 'https://preview.example.com',
        pages: json([{ path: '/' }, { path: '/pricing' }]),
        viewports: ['desktop'],
        mask_selectors: json([]),
        mismatch_threshold: 0.01,
        collection_status: 'complete',
        gate: 'pending',
        summary: json({ pages: 2 }),
        created_at: now,
        updated_at: now,
      });
      return id;
    }

    await apiKey('a', 'ci');
    await apiKey('a', 'laptop');
    const [monitorA1, monitorA2] = [await monitor('a', 'shop'), await monitor('a', 'blog')];
    await change('a', monitorA1);
    await change('a', monitorA2);
    const checkA = await releaseCheck('a');
    for (const pageIndex of [0, 1]) {
      await insert(client, 'release_check_artifacts', {
        id: randomUUID(),
        check_id: checkA,
        revision: 1,
        page_index: pageIndex,
        viewport: 'desktop',
        state: 'compared',
        comparison: json({ mismatch: 0.02 }),
      });
    }
    await insert(client, 'release_check_reviews', {
      id: randomUUID(),
      check_id: checkA,
      revision: 1,
      decision: 'approved',
      note: 'looks right',
      reviewer_id: PEOPLE.b.id,
      scope: json({ pages: [0, 1] }),
      decided_at: now,
    });

    await apiKey('b', 'deploys');
    const monitorB = await monitor('b', 'docs');
    await change('b', monitorB);
    await releaseCheck('b');
    // C owns nothing.
  }

  /** Every row of every table as JSON, without the given columns, in a stable order. */
  async function snapshot(
    client: Client,
    without: Partial<Record<Table, string[]>>,
  ): Promise<Record<Table, unknown[]>> {
    const result = {} as Record<Table, unknown[]>;
    for (const table of ALL_TABLES) {
      const removed = (without[table] ?? []).map((column) => ` - '${column}'`).join('');
      const { rows } = await client.query<{ row: unknown; text: string }>(
        `select to_jsonb(t)${removed} as row, (to_jsonb(t)${removed})::text as text from ${escapeIdentifier(table)} t order by 2`,
      );
      result[table] = rows.map(({ row }) => row);
    }
    return result;
  }

  /** The e-mail of the only member of each workspace, by workspace id. */
  async function workspaceOwners(): Promise<Record<string, string>> {
    const { rows } = await db!.query<{ workspace_id: string; email: string }>(
      `select m.workspace_id, u.email from workspace_members m join users u on u.id = m.user_id`,
    );
    return Object.fromEntries(rows.map((row) => [row.workspace_id, row.email]));
  }

  it('gives every user exactly one workspace, named by their e-mail, on their plan, with them as its only admin', async () => {
    const { rows: workspaces } = await db!.query<{ id: string; name: string; plan: string }>(
      `select id, name, plan from workspaces order by name`,
    );
    expect(workspaces.map(({ name, plan }) => ({ name, plan }))).toEqual(
      Object.values(PEOPLE).map(({ email, plan }) => ({ name: email, plan })),
    );
    const { rows: members } = await db!.query<{ workspace_name: string; user_id: string; role: string }>(
      `select w.name as workspace_name, m.user_id, m.role from workspace_members m join workspaces w on w.id = m.workspace_id order by w.name`,
    );
    expect(members).toEqual(
      Object.values(PEOPLE).map(({ id, email }) => ({ workspace_name: email, user_id: id, role: 'admin' })),
    );
    expect(workspaces.find((workspace) => workspace.name === PEOPLE.a.email)?.plan).toBe('team');
  });

  it.each(OWNED_TABLES)('keeps every row of %s under its id in its former owner’s workspace', async (table) => {
    const byWorkspace = await workspaceOwners();
    const { rows } = await db!.query<{ id: string; workspace_id: string }>(
      `select id, workspace_id from ${escapeIdentifier(table)}`,
    );
    const placed = Object.fromEntries(rows.map((row) => [row.id, byWorkspace[row.workspace_id]]));
    const expected = Object.fromEntries(Object.entries(owners[table]).map(([id, owner]) => [id, PEOPLE[owner].email]));
    expect(placed).toEqual(expected);
  });

  it('keeps the former owner as creator of monitors and API keys, and as opener of release checks', async () => {
    for (const table of ['monitors', 'api_keys'] as const) {
      const { rows } = await db!.query<{ id: string; created_by_id: string | null }>(
        `select id, created_by_id from ${escapeIdentifier(table)}`,
      );
      expect(Object.fromEntries(rows.map((row) => [row.id, row.created_by_id]))).toEqual(
        Object.fromEntries(Object.entries(owners[table]).map(([id, owner]) => [id, PEOPLE[owner].id])),
      );
    }
    const { rows } = await db!.query<{ id: string; opened_by_id: string | null; opened_by_key_id: string | null }>(
      `select id, opened_by_id, opened_by_key_id from release_checks`,
    );
    expect(rows.map((row) => [row.id, row.opened_by_id, row.opened_by_key_id]).sort()).toEqual(
      Object.entries(owners.release_checks)
        .map(([id, owner]) => [id, PEOPLE[owner].id, null])
        .sort(),
    );
  });

  it('keeps the number of rows of every table', async () => {
    const counts: Partial<Record<Table, number>> = {};
    for (const table of ALL_TABLES) {
      const { rows } = await db!.query<{ count: number }>(
        `select count(*)::int as count from ${escapeIdentifier(table)}`,
      );
      counts[table] = rows[0].count;
    }
    expect(counts).toEqual(Object.fromEntries(ALL_TABLES.map((table) => [table, rowsBefore[table].length])));
    // The data above: 3 users; A 2 keys, 2 monitors, 2 changes, 1 release check; B 1 of each.
    expect(counts).toMatchObject({ users: 3, api_keys: 3, monitors: 3, changes: 3, release_checks: 2 });
    expect(counts).toMatchObject({ monitor_checks: 9, monitor_check_rollups: 9, tracked_value_readings: 9 });
    expect(counts).toMatchObject({ release_check_artifacts: 2, release_check_reviews: 1 });
  });

  it('keeps every other value of every row, children included', async () => {
    expect(await snapshot(db!, ADDED_COLUMNS)).toEqual(rowsBefore);
  });

  it('drops users.plan and the user_id owner columns', async () => {
    const { rows } = await db!.query<{ table_name: string; column_name: string }>(
      `select table_name, column_name from information_schema.columns
        where table_schema = current_schema()
          and ((table_name = 'users' and column_name = 'plan') or (table_name = any($1) and column_name = 'user_id'))`,
      [OWNED_TABLES],
    );
    expect(rows).toEqual([]);
  });

  it('makes release check request keys unique per workspace instead of per user', async () => {
    const { rows } = await db!.query<{ name: string; definition: string }>(
      `select conname as name, pg_get_constraintdef(oid) as definition from pg_constraint
        where conrelid = 'release_checks'::regclass and contype = 'u'`,
    );
    expect(rows).toEqual([
      { name: 'release_checks_workspace_id_request_key_unique', definition: 'UNIQUE (workspace_id, request_key)' },
    ]);
    const { rows: checks } = await db!.query<{ request_key: string }>(`select request_key from release_checks`);
    expect(checks).toEqual([{ request_key: SHARED_REQUEST_KEY }, { request_key: SHARED_REQUEST_KEY }]);
  });

  it('leaves a schema that matches the entities', async () => {
    expect(await orm!.schema.getUpdateSchemaSQL()).toBe('');
  });
});
