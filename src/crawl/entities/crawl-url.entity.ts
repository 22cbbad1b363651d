import { randomUUID } from 'node:crypto';
import type { Opt } from '@mikro-orm/core';
import { Entity, Index, ManyToOne, PrimaryKey, Property, Unique } from '@mikro-orm/decorators/legacy';
import { Crawl } from './crawl.entity';

/**
 * `pending`: found, not fetched yet. `page`: fetched, an HTML page, listed. `skipped`: found and not listed
 * (`skipReason` says why). `alias`: the final URL of a listed page that redirected to it; known, so it is never
 * fetched or listed again.
 */
export const CRAWL_URL_STATES = ['pending', 'page', 'skipped', 'alias'] as const;
export type CrawlUrlState = (typeof CRAWL_URL_STATES)[number];
export const SKIP_REASONS = ['robots', 'out_of_scope', 'excluded', 'not_html', 'duplicate', 'error'] as const;
export type SkipReason = (typeof SKIP_REASONS)[number];
export const FOUND_VIA = ['link', 'sitemap'] as const;
export type FoundVia = (typeof FOUND_VIA)[number];

/**
 * One URL a crawl found: its frontier entry while pending, then its result. Unique per crawl, so a URL is recorded
 * once however often it is found, and `seq` keeps the order they were found in.
 */
@Entity({ tableName: 'crawl_urls' })
@Unique({ properties: ['crawl', 'url'] })
// The frontier's scan (pending, shallowest first) and the listing's (pages in the order found).
@Index({ properties: ['crawl', 'state', 'seq'] })
export class CrawlUrl {
  @PrimaryKey({ type: 'uuid' })
  id: string & Opt = randomUUID();

  @ManyToOne(() => Crawl, { deleteRule: 'cascade' })
  crawl: Crawl;

  @Property({ type: 'bigint', autoincrement: true })
  seq: Opt<string>;

  @Property({ type: 'text' })
  url: string;

  @Property({ type: 'integer' })
  depth: number;

  @Property({ type: 'text' })
  foundVia: FoundVia;

  @Property({ type: 'text' })
  state: CrawlUrlState & Opt = 'pending';

  @Property({ type: 'text', nullable: true })
  skipReason: SkipReason | null = null;

  @Property({ type: 'text', nullable: true })
  finalUrl: string | null = null;

  @Property({ type: 'integer', nullable: true })
  statusCode: number | null = null;

  @Property({ type: 'text', nullable: true })
  title: string | null = null;

  @Property({ type: 'text', nullable: true })
  canonical: string | null = null;

  @Property({ type: 'boolean' })
  noindex: boolean & Opt = false;
}
