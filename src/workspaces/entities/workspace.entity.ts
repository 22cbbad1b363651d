import { randomUUID } from 'node:crypto';
import type { Opt } from '@mikro-orm/core';
import { Entity, PrimaryKey, Property } from '@mikro-orm/decorators/legacy';

export interface ReviewPolicy {
  /** The person who opened a release check cannot approve it. */
  require_distinct_reviewer: boolean;
}

/** A team: owns every resource (monitors, release checks, keys, ...) and holds the plan. */
@Entity({ tableName: 'workspaces' })
export class Workspace {
  @PrimaryKey({ type: 'uuid' })
  id: string & Opt = randomUUID();

  @Property({ type: 'text' })
  name: string;

  @Property({ type: 'text' })
  plan: string & Opt = 'free';

  @Property({ type: 'json' })
  reviewPolicy: ReviewPolicy & Opt = { require_distinct_reviewer: false };

  @Property({ type: 'timestamptz' })
  createdAt: Date & Opt = new Date();
}
