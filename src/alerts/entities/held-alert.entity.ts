import { randomUUID } from 'node:crypto';
import type { Opt } from '@mikro-orm/core';
import { Entity, Index, ManyToOne, PrimaryKey, Property } from '@mikro-orm/decorators/legacy';
import { WorkspaceScoped } from '../../common/tenancy/workspace-scope';
import { Monitor } from '../../monitors/entities/monitor.entity';
import { Workspace } from '../../workspaces/entities/workspace.entity';

/** An alert held, not sent, because its monitor's parent was down; listed on the parent. Never changed. */
@Entity({ tableName: 'held_alerts' })
@WorkspaceScoped()
@Index({ properties: ['parent', 'heldAt'] })
export class HeldAlert {
  @PrimaryKey({ type: 'uuid' })
  id: string & Opt = randomUUID();

  @ManyToOne(() => Workspace, { deleteRule: 'cascade' })
  workspace: Workspace;

  /** The dependent monitor whose alert was held. */
  @ManyToOne(() => Monitor, { deleteRule: 'cascade' })
  monitor: Monitor;

  /** The monitor that was down. */
  @ManyToOne(() => Monitor, { deleteRule: 'cascade' })
  parent: Monitor;

  @Property({ type: 'uuid' })
  ruleId: string;

  @Property({ type: 'text' })
  region: string;

  @Property({ type: 'integer', nullable: true })
  statusCode: number | null;

  @Property({ type: 'text', nullable: true })
  message: string | null;

  @Property({ type: 'timestamptz' })
  checkedAt: Date;

  @Property({ type: 'timestamptz' })
  heldAt: Date & Opt = new Date();
}
