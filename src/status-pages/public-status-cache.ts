import { createHash, randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { Injectable, Logger } from '@nestjs/common';
import { RedisService } from '../redis/redis.module';
import { StatusPage } from './entities/status-page.entity';

/** How long a computed public page is served before it is computed again. */
export const PUBLIC_PAGE_TTL_MS = 60_000;
const WAIT_STEP_MS = 25;
/** Deletes a computation's lock only while it is still that computation's: one that outlived it frees no other's. */
const RELEASE_LOCK = `if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end return 0`;

/** A computed public page: its JSON and entity tag, or that the slug has no published page. */
export type CachedPublicPage = { found: true; json: string; etag: string; computedAt: number } | { found: false };

/**
 * The public pages' cache, shared by every API instance through Redis, so a burst of visitors costs the database at
 * most one computation a minute per page. Each slug has a version that every change by the workspace increments;
 * pages are cached under their version, so a change shows on the very next read everywhere, and a computation that
 * raced with a change is stored under a version nobody reads any more. Within an instance the last page read is kept
 * too, so a hit costs one small Redis read (the version) rather than the page.
 */
@Injectable()
export class PublicStatusCache {
  private readonly logger = new Logger(PublicStatusCache.name);
  private readonly local = new Map<string, { version: string; page: CachedPublicPage; storedAt: number }>();
  /** How long one computation may take before another request may try (shortened by tests). */
  computeLockMs = 10_000;

  constructor(private readonly redis: RedisService) {}

  /** The page of `slug`, computed by `compute` at most once a minute across instances (null: no published page). */
  async read(slug: string, compute: () => Promise<string | null>): Promise<CachedPublicPage> {
    const version = (await this.redis.client.get(this.versionKey(slug))) ?? 'initial';
    const local = this.local.get(slug);
    if (local && local.version === version && Date.now() - local.storedAt < PUBLIC_PAGE_TTL_MS) return local.page;
    const pageKey = this.pageKey(slug, version);
    const page = (await this.stored(pageKey)) ?? (await this.computeOnce(slug, version, compute));
    this.remember(slug, version, page);
    return page;
  }

  /**
   * Called after a change by the workspace is committed: the next read of these slugs computes afresh. A new random
   * version (not a counter, which a Redis flush would send back to numbers an instance may still hold pages under).
   * The change is committed whatever Redis says: if it cannot be told, the page is at most a minute late.
   */
  async invalidate(...slugs: string[]): Promise<void> {
    try {
      const pipeline = this.redis.client.pipeline();
      for (const slug of new Set(slugs)) pipeline.set(this.versionKey(slug), randomUUID());
      await pipeline.exec();
    } catch (error) {
      this.logger.warn(
        { err: error, slugs },
        'could not replace the cached status pages; they refresh within a minute',
      );
    }
  }

  /** `invalidate` for every page of the workspace `em` is scoped to: after a change all of them may show. */
  async invalidateWorkspace(em: EntityManager): Promise<void> {
    const pages = await em.find(StatusPage, {}, { fields: ['slug'] });
    if (pages.length) await this.invalidate(...pages.map((page) => page.slug));
  }

  private async computeOnce(
    slug: string,
    version: string,
    compute: () => Promise<string | null>,
  ): Promise<CachedPublicPage> {
    const pageKey = this.pageKey(slug, version);
    const lockKey = `${pageKey}:computing`;
    const token = randomUUID();
    const lock = async () => (await this.redis.client.set(lockKey, token, 'PX', this.computeLockMs, 'NX')) === 'OK';
    // Another request (here or on another instance) may be computing this version: wait for its result while it
    // holds the lock, however slow the database is, and take over if it stops without one. A request computes
    // without the lock only after waiting as long as a lock lasts.
    const giveUpAt = Date.now() + this.computeLockMs;
    let locked = await lock();
    while (!locked && Date.now() < giveUpAt) {
      await new Promise((resolve) => setTimeout(resolve, WAIT_STEP_MS));
      const page = await this.stored(pageKey);
      if (page) return page;
      locked = await lock();
    }
    try {
      // Whoever held the lock before may have stored the page between our miss and our lock: use it.
      const stored = locked ? await this.stored(pageKey) : null;
      if (stored) return stored;
      const json = await compute();
      const page: CachedPublicPage =
        json === null
          ? { found: false }
          : {
              found: true,
              json,
              etag: `"${createHash('sha256').update(json).digest('base64url').slice(0, 27)}"`,
              computedAt: Date.now(),
            };
      await this.redis.client.set(pageKey, JSON.stringify(page), 'PX', PUBLIC_PAGE_TTL_MS);
      return page;
    } finally {
      if (locked) await this.redis.client.eval(RELEASE_LOCK, 1, lockKey, token);
    }
  }

  private async stored(pageKey: string): Promise<CachedPublicPage | null> {
    const raw = await this.redis.client.get(pageKey);
    return raw === null ? null : (JSON.parse(raw) as CachedPublicPage);
  }

  private remember(slug: string, version: string, page: CachedPublicPage): void {
    // A bounded memo: unknown slugs from a crawler must not grow it without end.
    if (this.local.size >= 1000 && !this.local.has(slug)) this.local.delete(this.local.keys().next().value!);
    this.local.set(slug, { version, page, storedAt: page.found ? page.computedAt : Date.now() });
  }

  private versionKey(slug: string): string {
    return this.redis.key('status-page', slug, 'version');
  }

  private pageKey(slug: string, version: string): string {
    return this.redis.key('status-page', slug, version);
  }
}
