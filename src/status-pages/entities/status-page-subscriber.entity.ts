import { randomUUID } from 'node:crypto';
import { ArrayType, type Opt } from '@mikro-orm/core';
import { Entity, Index, ManyToOne, PrimaryKey, Property, Unique } from '@mikro-orm/decorators/legacy';
import { WorkspaceScoped } from '../../common/tenancy/workspace-scope';
import { Workspace } from '../../workspaces/entities/workspace.entity';
import { StatusPage } from './status-page.entity';

export const SUBSCRIBER_KINDS = ['email', 'webhook'] as const;
export type SubscriberKind = (typeof SUBSCRIBER_KINDS)[number];

/**
 * Someone told of a public status page's incidents and maintenance: an e-mail address (once it confirmed) or a
 * webhook URL. Never shown publicly; removed when it unsubscribes.
 */
@Entity({ tableName: 'status_page_subscribers' })
@WorkspaceScoped()
@Index({ properties: ['statusPage', 'createdAt'] })
@Unique({ properties: ['statusPage', 'address'] })
export class StatusPageSubscriber {
  @PrimaryKey({ type: 'uuid' })
  id: string & Opt = randomUUID();

  @ManyToOne(() => Workspace, { deleteRule: 'cascade' })
  workspace: Workspace;

  @ManyToOne(() => StatusPage, { deleteRule: 'cascade' })
  statusPage: StatusPage;

  @Property({ type: 'text' })
  kind: SubscriberKind;

  /** The e-mail address (lower-cased) or the webhook URL: one subscription per page each. */
  @Property({ type: 'text' })
  address: string;

  /** The page's components it follows; empty for the whole page. */
  @Property({ type: ArrayType, columnType: 'uuid[]' })
  componentIds: string[] & Opt = [];

  /** When the address confirmed (a webhook at once); nothing is sent before. */
  @Property({ type: 'timestamptz', nullable: true })
  confirmedAt: Date | null = null;

  @Property({ type: 'timestamptz' })
  createdAt: Date & Opt = new Date();
}
