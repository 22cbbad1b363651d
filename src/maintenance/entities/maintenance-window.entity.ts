import { randomUUID } from 'node:crypto';
import { ArrayType, type Opt } from '@mikro-orm/core';
import { Entity, Index, ManyToOne, PrimaryKey, Property } from '@mikro-orm/decorators/legacy';
import { WorkspaceScoped } from '../../common/tenancy/workspace-scope';
import { Workspace } from '../../workspaces/entities/workspace.entity';
import type { MaintenanceEffect, WindowTimes } from '../maintenance-calendar';

/**
 * A maintenance window: one-off, or recurring by an RRULE at a wall-clock time of its time zone. Which occurrence is
 * under way is computed (maintenance-calendar.ts), never stored; what is stored of that is only the announcer's
 * memory of the occurrence it told receivers has started, and when it must look at the window again.
 */
@Entity({ tableName: 'maintenance_windows' })
@WorkspaceScoped()
@Index({ properties: ['workspace', 'createdAt'] })
// The announcer's scan: windows due to start or end.
@Index({ properties: ['nextTransitionAt'] })
// One window per key in a workspace.
@Index({
  name: 'maintenance_windows_declaration_key_unique',
  expression:
    'create unique index "maintenance_windows_declaration_key_unique" on "maintenance_windows" ("workspace_id", "declaration_key") where "declaration_key" is not null',
})
export class MaintenanceWindow implements WindowTimes {
  @PrimaryKey({ type: 'uuid' })
  id: string & Opt = randomUUID();

  @ManyToOne(() => Workspace, { deleteRule: 'cascade' })
  workspace: Workspace;

  /** The API's `name`. */
  @Property({ type: 'text' })
  title: string;

  @Property({ type: 'text', nullable: true })
  message: string | null = null;

  /** The API's `effect`. */
  @Property({ type: 'text' })
  mode: MaintenanceEffect & Opt = 'mute_alerts';

  /**
   * Covers every monitor of the workspace, those created later included: set exactly when `monitorIds` is empty (the
   * API's empty `monitor_ids`), and kept as a column for the checks' SQL that joins windows to monitors.
   */
  @Property({ type: 'boolean' })
  allMonitors: boolean & Opt = false;

  @Property({ type: ArrayType, columnType: 'uuid[]' })
  monitorIds: string[] & Opt = [];

  @Property({ type: 'timestamptz' })
  startsAt: Date;

  @Property({ type: 'integer' })
  durationMinutes: number;

  /** The API's `rrule`. */
  @Property({ type: 'text', nullable: true })
  recurrence: string | null = null;

  @Property({ type: 'text' })
  timezone: string & Opt = 'UTC';

  /** The last "end now": it cut short the occurrence under way then. */
  @Property({ type: 'timestamptz', nullable: true })
  endedAt: Date | null = null;

  /** The start of the occurrence `maintenance.started` was recorded for, until its `maintenance.ended` is. */
  @Property({ type: 'timestamptz', nullable: true })
  announcedStart: Date | null = null;

  /** When an occurrence next starts or ends; null when none is to come and none is announced. */
  @Property({ type: 'timestamptz', nullable: true })
  nextTransitionAt: Date | null = null;

  /** The logical key of the declaration managing it; null when it is managed by hand. */
  @Property({ type: 'text', nullable: true })
  declarationKey: string | null = null;

  @Property({ type: 'timestamptz' })
  createdAt: Date & Opt = new Date();

  @Property({ type: 'timestamptz', onUpdate: () => new Date() })
  updatedAt: Date & Opt = new Date();
}
