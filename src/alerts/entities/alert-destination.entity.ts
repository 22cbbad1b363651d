import { randomUUID } from 'node:crypto';
import { ArrayType, type Opt } from '@mikro-orm/core';
import { Entity, Index, ManyToOne, PrimaryKey, Property } from '@mikro-orm/decorators/legacy';
import { WorkspaceScoped } from '../../common/tenancy/workspace-scope';
import type { EventType } from '../../events/event.entity';
import { Workspace } from '../../workspaces/entities/workspace.entity';

export const DESTINATION_TYPES = ['webhook', 'slack', 'email'] as const;
export type DestinationType = (typeof DESTINATION_TYPES)[number];

export interface DestinationConfig {
  url?: string;
  webhook_url?: string;
  to?: string[];
}

/** Where alerts go: a signed webhook, a Slack incoming webhook, or e-mail addresses. */
@Entity({ tableName: 'alert_destinations' })
@WorkspaceScoped()
@Index({ properties: ['workspace', 'createdAt'] })
export class AlertDestination {
  @PrimaryKey({ type: 'uuid' })
  id: string & Opt = randomUUID();

  @ManyToOne(() => Workspace, { deleteRule: 'cascade' })
  workspace: Workspace;

  @Property({ type: 'text' })
  name: string;

  @Property({ type: 'text' })
  type: DestinationType;

  @Property({ type: 'json' })
  config: DestinationConfig;

  /** Workspace-wide event types sent here. */
  @Property({ type: ArrayType, columnType: 'text[]' })
  events: EventType[] & Opt = [];

  @Property({ type: 'boolean' })
  enabled: boolean & Opt = true;

  @Property({ type: 'text', nullable: true })
  disabledReason: string | null = null;

  /** A webhook's signing secret (`whsec_…`); shown once, stored to sign. */
  @Property({ type: 'text', nullable: true, hidden: true })
  secret: string | null = null;

  /** The secret before the last rotation, still signing until `previousSecretExpiresAt`. */
  @Property({ type: 'text', nullable: true, hidden: true })
  previousSecret: string | null = null;

  @Property({ type: 'timestamptz', nullable: true })
  previousSecretExpiresAt: Date | null = null;

  @Property({ type: 'timestamptz' })
  createdAt: Date & Opt = new Date();
}
