import { randomUUID } from 'node:crypto';
import { ArrayType, type Opt } from '@mikro-orm/core';
import { Entity, Index, ManyToOne, PrimaryKey, Property } from '@mikro-orm/decorators/legacy';
import { WorkspaceScoped } from '../../common/tenancy/workspace-scope';
import type { EventType } from '../../events/event.entity';
import { Workspace } from '../../workspaces/entities/workspace.entity';

/** Destinations of the alerts API. */
export const DESTINATION_TYPES = ['webhook', 'slack', 'email'] as const;
export type DestinationType = (typeof DESTINATION_TYPES)[number];

/** Code-host connections: destinations of release checks' events, managed by the code-hosts API. */
export const CODE_HOST_PROVIDERS = ['github', 'gitlab'] as const;
export type CodeHostProvider = (typeof CODE_HOST_PROVIDERS)[number];

/** Filters that pick one kind of row: alert destinations (rules, the alerts API, plan counts) or code hosts. */
export const ALERT_DESTINATIONS = { type: { $in: [...DESTINATION_TYPES] } };
export const CODE_HOST_CONNECTIONS = { type: { $in: [...CODE_HOST_PROVIDERS] } };

export interface DestinationConfig {
  url?: string;
  webhook_url?: string;
  to?: string[];
  /** A code host's repositories served: a GitHub account, a GitLab group or project path. */
  namespace?: string;
  /** GitHub App and installation. */
  app_id?: number;
  installation_id?: number;
  /** GitLab's address. */
  base_url?: string;
}

/**
 * Where events go: a signed webhook, a Slack incoming webhook, e-mail addresses, or a code host (GitHub, GitLab) that
 * shows release checks' gates on commits and pull requests. One table, so every kind is delivered by the same
 * machinery (the outbox relay, claims, retries, the delivery log).
 */
@Entity({ tableName: 'alert_destinations' })
@WorkspaceScoped()
@Index({ properties: ['workspace', 'createdAt'] })
// One connection per provider and namespace in a workspace: which one serves a repository is never a toss-up.
@Index({
  name: 'alert_destinations_code_host_namespace_unique',
  expression:
    'create unique index "alert_destinations_code_host_namespace_unique" on "alert_destinations" ' +
    `("workspace_id", "type", lower("config"->>'namespace')) where "type" in ('github', 'gitlab')`,
})
// A declaration's logical key names one resource (DeclarationsService).
@Index({
  name: 'alert_destinations_declaration_key_unique',
  expression:
    'create unique index "alert_destinations_declaration_key_unique" on "alert_destinations" ("workspace_id", "declaration_key") where "declaration_key" is not null',
})
export class AlertDestination {
  @PrimaryKey({ type: 'uuid' })
  id: string & Opt = randomUUID();

  @ManyToOne(() => Workspace, { deleteRule: 'cascade' })
  workspace: Workspace;

  /** The logical key of the declaration managing it; null when it is managed by hand. */
  @Property({ type: 'text', nullable: true })
  declarationKey: string | null = null;

  @Property({ type: 'text' })
  name: string;

  @Property({ type: 'text' })
  type: DestinationType | CodeHostProvider;

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

  /** A code host's private key or token, sealed (CredentialBox) and bound to this row; never returned. */
  @Property({ type: 'text', nullable: true, hidden: true })
  credential: string | null = null;

  @Property({ type: 'timestamptz' })
  createdAt: Date & Opt = new Date();

  @Property({ type: 'timestamptz', onUpdate: () => new Date() })
  updatedAt: Date & Opt = new Date();
}
