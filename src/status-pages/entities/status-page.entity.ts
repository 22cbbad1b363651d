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
// A declaration's logical key names one resource (DeclarationsService).
@Index({
  name: 'status_pages_declaration_key_unique',
  expression:
    'create unique index "status_pages_declaration_key_unique" on "status_pages" ("workspace_id", "declaration_key") where "declaration_key" is not null',
})
export class StatusPage {
  @PrimaryKey({ type: 'uuid' })
  id: string & Opt = randomUUID();

  @ManyToOne(() => Workspace, { deleteRule: 'cascade' })
  workspace: Workspace;

  /** The logical key of the declaration managing it; null when it is managed by hand. */
  @Property({ type: 'text', nullable: true })
  declarationKey: string | null = null;

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
