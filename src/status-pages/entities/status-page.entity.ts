import { randomUUID } from 'node:crypto';
import type { Opt } from '@mikro-orm/core';
import { Entity, Index, ManyToOne, PrimaryKey, Property, Unique } from '@mikro-orm/decorators/legacy';
import { WorkspaceScoped } from '../../common/tenancy/workspace-scope';
import { Workspace } from '../../workspaces/entities/workspace.entity';

/** A group of monitors shown under one public name. */
export interface StatusPageComponent {
  id: string;
  name: string;
  monitor_ids: string[];
}

/**
 * A public status page. Its components live in the row (replaced whole by an update, read whole by the public page),
 * so a page and what it shows change together.
 */
@Entity({ tableName: 'status_pages' })
@WorkspaceScoped()
@Index({ properties: ['workspace', 'createdAt'] })
export class StatusPage {
  @PrimaryKey({ type: 'uuid' })
  id: string & Opt = randomUUID();

  @ManyToOne(() => Workspace, { deleteRule: 'cascade' })
  workspace: Workspace;

  /** Unique across the service: the public address. */
  @Property({ type: 'text' })
  @Unique()
  slug: string;

  @Property({ type: 'text' })
  title: string;

  @Property({ type: 'text', nullable: true })
  description: string | null = null;

  @Property({ type: 'boolean' })
  published: boolean & Opt = false;

  @Property({ type: 'json' })
  components: StatusPageComponent[] & Opt = [];

  @Property({ type: 'timestamptz' })
  createdAt: Date & Opt = new Date();

  @Property({ type: 'timestamptz', onUpdate: () => new Date() })
  updatedAt: Date & Opt = new Date();
}
