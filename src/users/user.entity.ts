import { randomUUID } from 'node:crypto';
import type { Opt } from '@mikro-orm/core';
import { Entity, Enum, PrimaryKey, Property } from '@mikro-orm/decorators/legacy';
import { USER_ROLES, type UserRole } from '../common/auth/scopes';

@Entity({ tableName: 'users' })
export class User {
  @PrimaryKey({ type: 'uuid' })
  id: string & Opt = randomUUID();

  /** Stored lower-cased, so lookups and the unique index ignore case. */
  @Property({ type: 'text', unique: true })
  email: string;

  @Property({ type: 'text', hidden: true, lazy: true })
  passwordHash: string;

  @Enum({ items: () => USER_ROLES, type: 'text' })
  role: UserRole;

  @Property({ type: 'timestamptz' })
  createdAt: Date & Opt = new Date();
}
