import { randomUUID } from 'node:crypto';
import type { Client } from 'pg';
import type { ApiClient } from './api-client';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls a release check, as the CI gate client does, until its collection has finished; returns the check. */
export async function waitForCollection(client: ApiClient, id: string, timeoutMs = 180_000): Promise<any> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const check = (await client.get(`/release-checks/${id}`)).body;
    if (check.collection_status === 'completed' || check.collection_status === 'incomplete') return check;
    if (Date.now() > deadline) {
      const summary = JSON.stringify(check.summary);
      throw new Error(
        `collection of ${id} did not finish in ${timeoutMs / 1000} s (${check.collection_status}): ${summary}`,
      );
    }
    await sleep(250);
  }
}

/**
 * A copy of a collected check with `pages` pages, its artifacts cloned from the original's (page i takes the evidence
 * of page i mod n, viewport for viewport, screenshots and all): a review page of hundreds of pairs without capturing
 * hundreds of pages. The stored counts are those the API derives from the cloned artifacts. Returns the copy's id.
 */
export async function seedLargeCheck(
  db: Client,
  client: ApiClient,
  originalId: string,
  pages: number,
): Promise<string> {
  const original = (await db.query('SELECT pages FROM release_checks WHERE id = $1', [originalId])).rows[0];
  const sourcePages: Array<{ production_path: string; preview_path: string }> = original.pages;
  const copied = Array.from({ length: pages }, (_, index) => {
    const source = sourcePages[index % sourcePages.length];
    return {
      ...source,
      production_path: `/section-${index}${source.production_path}`,
      preview_path: `/section-${index}${source.preview_path}`,
    };
  });
  const id = randomUUID();
  await db.query('BEGIN');
  try {
    // Copied through temporary tables, so every column comes along, whatever later migrations add.
    await db.query('CREATE TEMP TABLE seed_check ON COMMIT DROP AS SELECT * FROM release_checks WHERE id = $1', [
      originalId,
    ]);
    await db.query(
      'UPDATE seed_check SET id = $1::uuid, name = name || $2, request_key = request_key || $1::text, pages = $3::jsonb',
      [id, ` (${pages} pages)`, JSON.stringify(copied)],
    );
    await db.query('INSERT INTO release_checks SELECT * FROM seed_check');
    await db.query(
      `CREATE TEMP TABLE seed_artifacts ON COMMIT DROP AS
       SELECT a.*, copy.index AS copy_index FROM generate_series(0, $2::int - 1) AS copy(index)
       JOIN release_check_artifacts a ON a.check_id = $1 AND a.page_index = copy.index % $3`,
      [originalId, pages, sourcePages.length],
    );
    await db.query(
      `UPDATE seed_artifacts SET id = gen_random_uuid(), check_id = $1, page_index = copy_index, decision = NULL`,
      [id],
    );
    await db.query('ALTER TABLE seed_artifacts DROP COLUMN copy_index');
    await db.query('INSERT INTO release_check_artifacts SELECT * FROM seed_artifacts');
    await db.query('COMMIT');
  } catch (error) {
    await db.query('ROLLBACK');
    throw error;
  }
  const { summary } = (await client.get(`/release-checks/${id}`)).body;
  await db.query('UPDATE release_checks SET summary = $2 WHERE id = $1', [id, JSON.stringify(summary)]);
  return id;
}
