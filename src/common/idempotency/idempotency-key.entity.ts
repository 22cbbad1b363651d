import { randomUUID } from 'node:crypto';
import type { Opt } from '@mikro-orm/core';
import { Entity, Index, ManyToOne, PrimaryKey, Property } from '@mikro-orm/decorators/legacy';
import { WorkspaceScoped } from '../tenancy/workspace-scope';
import { Workspace } from '../../workspaces/entities/workspace.entity';

export const IDEMPOTENCY_STATES = ['in_flight', 'completed'] as const;
export type IdempotencyState = (typeof IDEMPOTENCY_STATES)[number];

/**
 * One `Idempotency-Key` a caller sent to a create, kept 24 hours: while the first request runs it holds the key
 * (`in_flight`), then the answer to replay (`completed`). Read and written only by IdempotencyStore's own SQL. Neither
 * the key nor the answer is stored readably: the key as part of a SHA-256 (`scopeHash`), the answer encrypted with a
 * key derived from it, because an answer may carry a secret shown once (an API key, a signing secret).
 */
@Entity({ tableName: 'idempotency_keys' })
@WorkspaceScoped()
@Index({ properties: ['createdAt'] })
export class IdempotencyKey {
  @PrimaryKey({ type: 'uuid' })
  id: string & Opt = randomUUID();

  /** The workspace the request acted in; null for routes that act in none (creating a workspace, a person). */
  @ManyToOne(() => Workspace, { nullable: true, deleteRule: 'cascade' })
  workspace: Workspace | null = null;

  /** SHA-256 of the key's scope: workspace, credential (API key or person), method, route and the key itself. */
  @Property({ type: 'text', unique: true })
  scopeHash: string;

  /** SHA-256 of the canonical JSON of the request (path parameters, query and body). */
  @Property({ type: 'text' })
  requestHash: string;

  @Property({ type: 'text' })
  state: IdempotencyState & Opt = 'in_flight';

  /** While `in_flight`: after this the first request is taken to have died, and the key is free again. */
  @Property({ type: 'timestamptz', nullable: true })
  lockedUntil: Date | null = null;

  @Property({ type: 'integer', nullable: true })
  responseStatus: number | null = null;

  /** The answer to replay (body and Location), AES-256-GCM encrypted with a key derived from the Idempotency-Key. */
  @Property({ type: 'text', nullable: true })
  response: string | null = null;

  @Property({ type: 'timestamptz' })
  createdAt: Date & Opt = new Date();
}
