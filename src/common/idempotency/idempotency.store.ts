import { randomUUID } from 'node:crypto';
import { MikroORM } from '@mikro-orm/postgresql';
import { Injectable } from '@nestjs/common';
import { DomainError } from '../errors/domain-errors';
import { type IdempotencyScope, type StoredAnswer, openAnswer, scopeHash, sealAnswer } from './idempotency-key';

/** How long a key answers repeats. */
export const IDEMPOTENCY_TTL_HOURS = 24;
/** A first request still `in_flight` after this is taken to have died with its process; the key is free again. */
const IN_FLIGHT_LEASE_SECONDS = 300;
const PRUNE_BATCH = 1000;

/** What a request holding a key learns: go ahead (its claim), or answer as the first request did. */
export type Claim = { kind: 'claimed'; id: string } | { kind: 'replay'; answer: StoredAnswer };

interface ExistingRow {
  request_hash: string;
  state: 'in_flight' | 'completed';
  response_status: number | null;
  response: string | null;
}

/**
 * Idempotency keys in PostgreSQL, shared by every API replica. A key is claimed by one statement (insert, or take
 * over a row whose 24 hours or in-flight lease are over), so of two requests racing with one key exactly one runs.
 */
@Injectable()
export class IdempotencyStore {
  constructor(private readonly orm: MikroORM) {}

  private execute<T>(sql: string, params: unknown[]): Promise<T[]> {
    return this.orm.em.getConnection().execute<T[]>(sql, params, 'all');
  }

  /** Claims the key for this request, or says how to answer: replay, 409 while the first runs, 422 for another request. */
  async claim(scope: IdempotencyScope, requestHash: string): Promise<Claim> {
    const hash = scopeHash(scope);
    // A row deleted (its first request failed) between our insert and our read: try again.
    for (let attempt = 0; attempt < 3; attempt += 1) {
      const id = randomUUID();
      const claimed = await this.execute<{ id: string }>(
        `insert into idempotency_keys (id, workspace_id, scope_hash, request_hash, state, locked_until, created_at)
         values (?, ?, ?, ?, 'in_flight', now() + make_interval(secs => ${IN_FLIGHT_LEASE_SECONDS}), now())
         on conflict (scope_hash) do update set
           id = excluded.id, request_hash = excluded.request_hash, state = 'in_flight',
           locked_until = excluded.locked_until, response_status = null, response = null, created_at = now()
         where idempotency_keys.created_at < now() - make_interval(hours => ${IDEMPOTENCY_TTL_HOURS})
            or (idempotency_keys.state = 'in_flight' and idempotency_keys.locked_until < now())
         returning id`,
        [id, scope.workspaceId, hash, requestHash],
      );
      if (claimed.length) return { kind: 'claimed', id: claimed[0].id };

      const [existing] = await this.execute<ExistingRow>(
        `select request_hash, state, response_status, response from idempotency_keys where scope_hash = ?`,
        [hash],
      );
      if (!existing) continue;
      if (existing.request_hash !== requestHash) {
        throw new DomainError(
          'idempotency_key_reused',
          'This Idempotency-Key was used in the last 24 hours for a different request; send a new key for a new request.',
        );
      }
      if (existing.state === 'in_flight') {
        throw new DomainError(
          'idempotency_key_in_flight',
          'The first request with this Idempotency-Key is still running; retry once it has answered.',
          {},
          { 'Retry-After': '1' },
        );
      }
      return {
        kind: 'replay',
        answer: { status: existing.response_status!, ...openAnswer(scope, existing.response!) },
      };
    }
    throw new Error('could not claim an idempotency key after 3 attempts');
  }

  /** Keeps the first request's answer for repeats. */
  async complete(scope: IdempotencyScope, claimId: string, answer: StoredAnswer): Promise<void> {
    await this.execute(
      `update idempotency_keys set state = 'completed', locked_until = null, response_status = ?, response = ?
       where id = ? and state = 'in_flight'`,
      [answer.status, sealAnswer(scope, { body: answer.body, location: answer.location }), claimId],
    );
  }

  /** Frees the key after a request that failed: an error is not kept, so the same key may be sent again. */
  async release(claimId: string): Promise<void> {
    await this.execute(`delete from idempotency_keys where id = ? and state = 'in_flight'`, [claimId]);
  }

  /** Deletes keys past their 24 hours, in batches that never hold long locks. Returns how many went. */
  async prune(): Promise<number> {
    let deleted = 0;
    for (;;) {
      const rows = await this.execute<{ id: string }>(
        `delete from idempotency_keys where id in (
           select id from idempotency_keys
           where created_at < now() - make_interval(hours => ${IDEMPOTENCY_TTL_HOURS})
           limit ${PRUNE_BATCH} for update skip locked)
         returning id`,
        [],
      );
      deleted += rows.length;
      if (rows.length < PRUNE_BATCH) return deleted;
    }
  }
}
