import { ReferenceKind } from '@mikro-orm/core';
import { type EntityManager, type EntityMetadata, MikroORM } from '@mikro-orm/postgresql';
import {
  WORKSPACE_FILTER,
  acrossWorkspaces,
  inWorkspace,
  scopeToWorkspace,
} from '../../src/common/tenancy/workspace-scope';
import { ENTITIES } from '../../src/db/entities';
import { Setting } from '../../src/db/setting.entity';
import { ormConfig } from '../../src/db/orm.config';
import { MonitorCheck } from '../../src/monitors/entities/monitor-check.entity';
import { Monitor } from '../../src/monitors/entities/monitor.entity';
import { User } from '../../src/users/user.entity';
import { WorkspaceMember } from '../../src/workspaces/entities/workspace-member.entity';
import { Workspace } from '../../src/workspaces/entities/workspace.entity';

/** Entities of the instance itself, not of any workspace, each with the reason. Nothing else may be unscoped. */
const INSTANCE_LEVEL = new Map<string, string>([
  [User.name, 'a person can belong to several workspaces'],
  [Workspace.name, 'the tenant itself; reached through the caller’s memberships'],
  [WorkspaceMember.name, 'the memberships that decide which workspaces a person may act in'],
  [Setting.name, 'service-wide values such as the session-signing secret'],
]);

describe('tenancy is enforced in one place: the workspace filter', () => {
  let orm: MikroORM;

  beforeAll(async () => {
    orm = await MikroORM.init(ormConfig(process.env.DATABASE_URL!));
  });
  afterAll(() => orm.close(true));

  const isScoped = (meta: EntityMetadata): boolean =>
    WORKSPACE_FILTER in meta.filters && meta.properties.workspace?.targetMeta?.className === Workspace.name;

  /** A child is reached only through a required many-to-one chain that ends at a scoped entity. */
  function scopedThroughParent(meta: EntityMetadata, seen = new Set<string>()): boolean {
    if (seen.has(meta.className)) return false;
    seen.add(meta.className);
    return meta.relations.some(
      (relation) =>
        relation.kind === ReferenceKind.MANY_TO_ONE &&
        !relation.nullable &&
        relation.targetMeta !== undefined &&
        (isScoped(relation.targetMeta) || scopedThroughParent(relation.targetMeta, seen)),
    );
  }

  it('every entity is workspace-scoped, a child of a scoped entity, or named as instance-level with a reason', () => {
    const entities = [...orm.getMetadata().getAll().values()].filter((meta) => !meta.embeddable && !meta.virtual);
    // Every entity the application lists, so the checks below cannot pass on an empty list.
    expect(entities.map((meta) => meta.className).sort()).toEqual(ENTITIES.map((entity) => entity.name).sort());
    const unscoped = entities
      .filter((meta) => !INSTANCE_LEVEL.has(meta.className))
      .filter((meta) => !isScoped(meta) && !scopedThroughParent(meta))
      .map((meta) => meta.className);
    expect(unscoped).toEqual([]);
    // A root (an entity that names its workspace) carries the filter itself, whatever parents it also has.
    const rootsWithoutFilter = entities
      .filter((meta) => meta.properties.workspace && !INSTANCE_LEVEL.has(meta.className) && !isScoped(meta))
      .map((meta) => meta.className);
    expect(rootsWithoutFilter).toEqual([]);
    // Children are filtered through their parent only because MikroORM joins filtered many-to-one targets.
    expect(orm.config.get('autoJoinRefsForFilters')).toBe(true);
  });

  it('a scoped unit of work sees, changes and deletes only its workspace’s rows, children included', async () => {
    const setup = acrossWorkspaces(orm.em);
    const [a, b] = [setup.create(Workspace, { name: 'A' }), setup.create(Workspace, { name: 'B' })];
    const monitorOf = (workspace: Workspace) =>
      setup.create(Monitor, { workspace, name: workspace.name, url: 'https://example.com/', regions: ['local'] });
    const [monitorA, monitorB] = [monitorOf(a), monitorOf(b)];
    for (const monitor of [monitorA, monitorB]) {
      setup.create(MonitorCheck, {
        monitor,
        region: 'local',
        trigger: 'manual',
        scheduledFor: new Date(),
        checkedAt: new Date(),
        ok: true,
        statusCode: 200,
        responseTimeMs: 5,
        failure: null,
        message: null,
        contentHash: null,
      });
    }
    await setup.flush();

    const em = orm.em.fork();
    scopeToWorkspace(em, a.id);
    expect((await em.find(Monitor, {})).map((monitor) => monitor.id)).toEqual([monitorA.id]);
    expect(await em.findOne(Monitor, { id: monitorB.id })).toBeNull();
    expect((await em.find(MonitorCheck, {})).map((check) => check.monitor.id)).toEqual([monitorA.id]);
    expect(await em.count(MonitorCheck, { monitor: monitorB.id })).toBe(0);
    expect(await em.nativeUpdate(Monitor, { id: monitorB.id }, { name: 'taken' })).toBe(0);
    expect(await em.nativeDelete(Monitor, { id: monitorB.id })).toBe(0);
    expect(await acrossWorkspaces(orm.em).count(Monitor, { id: monitorB.id, name: 'B' })).toBe(1);
  });

  it('a unit of work that was given no workspace refuses to read a scoped entity instead of reading them all', async () => {
    await expect(orm.em.fork().find(Monitor, {})).rejects.toThrow(
      `No arguments provided for filter '${WORKSPACE_FILTER}'`,
    );
    await expect(orm.em.fork().count(MonitorCheck, {})).rejects.toThrow(WORKSPACE_FILTER);
  });

  it('raw SQL takes the same scope through inWorkspace: the workspace, every one when said so, or none at all', async () => {
    const setup = acrossWorkspaces(orm.em);
    const [a, b] = [setup.create(Workspace, { name: 'raw A' }), setup.create(Workspace, { name: 'raw B' })];
    for (const workspace of [a, b]) {
      setup.create(Monitor, { workspace, name: workspace.name, url: 'https://example.com/', regions: ['local'] });
    }
    await setup.flush();
    const names = async (em: EntityManager) =>
      (
        await em.execute<{ name: string }[]>(
          `select name from monitors m where ${inWorkspace(em, 'm.workspace_id')} and name like 'raw %' order by 1`,
        )
      ).map((row) => row.name);

    const scoped = orm.em.fork();
    scopeToWorkspace(scoped, a.id);
    expect(await names(scoped)).toEqual(['raw A']);
    expect(await names(acrossWorkspaces(orm.em))).toEqual(['raw A', 'raw B']);
    expect(() => inWorkspace(orm.em.fork(), 'm.workspace_id')).toThrow(/needs a unit of work scoped to a workspace/);
    // Only a column name goes into the statement.
    expect(() => inWorkspace(scoped, 'm.workspace_id; drop table monitors')).toThrow(/not a column/);
  });
});
