import { randomUUID } from 'node:crypto';
import { ArrayType, type Opt } from '@mikro-orm/core';
import { Entity, Index, ManyToOne, PrimaryKey, Property } from '@mikro-orm/decorators/legacy';
import type { Scope } from '../common/auth/scopes';
import { WorkspaceScoped } from '../common/tenancy/workspace-scope';
import { User } from '../users/user.entity';
import { Workspace } from '../workspaces/entities/workspace.entity';

@Entity({ tableName: 'api_keys' })
@WorkspaceScoped()
@Index({ properties: ['workspace', 'createdAt'] })
export class ApiKey {
  @PrimaryKey({ type: 'uuid' })
  id: string & Opt = randomUUID();

  /** The workspace the key acts in. */
  @ManyToOne(() => Workspace, { deleteRule: 'cascade' })
  workspace: Workspace;

  /** Who issued it; the key stays with the workspace when they leave it (its admins see and revoke it). */
  @ManyToOne(() => User, { nullable: true, deleteRule: 'set null' })
  createdBy: User | null = null;

  @Property({ type: 'text' })
  name: string;

  /** The first characters of the secret's random part, shown so a person can recognise the key. */
  @Property({ type: 'text' })
  prefix: string;

  /** SHA-256 of the secret (hex). The secret itself is never stored. */
  @Property({ type: 'text', unique: true, hidden: true })
  secretHash: string;

  @Property({ type: ArrayType, columnType: 'text[]' })
  scopes: Scope[];

  @Property({ type: 'timestamptz', nullable: true })
  expiresAt: Date | null = null;

  @Property({ type: 'timestamptz' })
  createdAt: Date & Opt = new Date();

  @Property({ type: 'timestamptz', nullable: true })
  lastUsedAt: Date | null = null;

  @Property({ type: 'timestamptz', nullable: true })
  revokedAt: Date | null = null;

  /** Null: the service default (RATE_LIMIT_PER_MINUTE). An administrator may set a higher ceiling. */
  @Property({ type: 'integer', nullable: true })
  rateLimitPerMinute: number | null = null;
}
