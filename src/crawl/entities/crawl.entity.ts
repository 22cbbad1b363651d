import { randomUUID } from 'node:crypto';
import { ArrayType, type Opt } from '@mikro-orm/core';
import { Entity, Index, ManyToOne, PrimaryKey, Property, Unique } from '@mikro-orm/decorators/legacy';
import { WorkspaceScoped } from '../../common/tenancy/workspace-scope';
import { User } from '../../users/user.entity';
import { Workspace } from '../../workspaces/entities/workspace.entity';

export const CRAWL_STATUSES = ['queued', 'running', 'completed', 'failed', 'cancelled'] as const;
export type CrawlStatus = (typeof CRAWL_STATUSES)[number];
export const CRAWL_STOP_REASONS = ['max_pages', 'max_depth'] as const;
export type CrawlStopReason = (typeof CRAWL_STOP_REASONS)[number];
export const CRAWL_FAILURE_REASONS = [
  'robots_unavailable',
  'robots_disallowed',
  'start_url_failed',
  'interrupted',
] as const;

export interface CrawlFailure {
  reason: (typeof CRAWL_FAILURE_REASONS)[number];
  message: string;
}

/**
 * A crawl of one origin. Its frontier and results are its CrawlUrl rows, so a worker that dies leaves everything
 * another worker needs to go on; this row holds the settings, the phase and the outcome.
 */
@Entity({ tableName: 'crawls' })
@WorkspaceScoped()
@Unique({ properties: ['workspace', 'requestKey'] })
@Index({ properties: ['workspace', 'createdAt'] })
// The resume sweep's scan: unfinished crawls only.
@Index({
  name: 'crawls_unfinished_index',
  expression: `create index "crawls_unfinished_index" on "crawls" ("created_at") where "status" in ('queued', 'running')`,
})
export class Crawl {
  @PrimaryKey({ type: 'uuid' })
  id: string & Opt = randomUUID();

  @ManyToOne(() => Workspace, { deleteRule: 'cascade' })
  workspace: Workspace;

  /** The start URL, normalised. */
  @Property({ type: 'text' })
  url: string;

  /** The origin crawled: the start URL's, or the one it redirected to once the start URL was fetched. */
  @Property({ type: 'text' })
  origin: string;

  @Property({ type: 'integer' })
  maxPages: number;

  @Property({ type: 'integer' })
  maxDepth: number;

  @Property({ type: ArrayType, columnType: 'text[]' })
  include: string[];

  @Property({ type: ArrayType, columnType: 'text[]' })
  exclude: string[];

  @Property({ type: 'text', nullable: true })
  requestKey: string | null = null;

  /** What `request_key` is bound to: a hash of the request with its defaults applied. */
  @Property({ type: 'text', nullable: true })
  requestHash: string | null = null;

  @Property({ type: 'text' })
  status: CrawlStatus & Opt = 'queued';

  @Property({ type: 'text', nullable: true })
  stopReason: CrawlStopReason | null = null;

  @Property({ type: 'json', nullable: true })
  failure: CrawlFailure | null = null;

  /** Set once the sitemaps' URLs are in the frontier, so a resumed crawl does not read them again. */
  @Property({ type: 'timestamptz', nullable: true })
  sitemapsReadAt: Date | null = null;

  /** URLs deeper than `maxDepth` were found (and not fetched). */
  @Property({ type: 'boolean' })
  depthLimited: boolean & Opt = false;

  @ManyToOne(() => User, { nullable: true, deleteRule: 'set null' })
  createdBy: User | null = null;

  @Property({ type: 'timestamptz' })
  createdAt: Date & Opt = new Date();

  @Property({ type: 'timestamptz', nullable: true })
  startedAt: Date | null = null;

  @Property({ type: 'timestamptz', nullable: true })
  completedAt: Date | null = null;
}
