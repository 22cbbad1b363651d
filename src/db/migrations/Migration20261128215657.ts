import { Migration } from '@mikro-orm/migrations';

/** Each assertion of `assertions` with `source` renamed, `from` → `to`, and its values renamed by `values`. */
const renamed = (from: string, to: string, values: Record<string, string>) => {
  const cases = Object.entries(values)
    .map(([old, renamed]) => `when '${old}' then '${renamed}'`)
    .join(' ');
  return `update "monitors" set "assertions" = (
      select jsonb_agg((a - '${from}') || jsonb_build_object('${to}', case a->>'${from}' ${cases} else a->>'${from}' end)
               order by n)
        from jsonb_array_elements("assertions") with ordinality as e(a, n))
    where "assertions" <> '[]'::jsonb;`;
};

/**
 * A check's failed assertions, each with the value read; assertions say what they read with `type` (DESIGN's
 * names: `status`, `body_regex`) instead of `source` (`status_code`, `body`).
 */
export class Migration20261128215657 extends Migration {
  override name = 'Migration20261128215657';

  override up(): void | Promise<void> {
    this.addSql(`alter table "monitor_checks" add "failed_assertions" jsonb null;`);
    this.addSql(renamed('source', 'type', { status_code: 'status', body: 'body_regex' }));
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "monitor_checks" drop column "failed_assertions";`);
    this.addSql(renamed('type', 'source', { status: 'status_code', body_regex: 'body' }));
  }
}
