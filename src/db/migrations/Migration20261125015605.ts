import { Migration } from '@mikro-orm/migrations';

/**
 * `Idempotency-Key` records of creates: one row per workspace, credential, route and key (as a SHA-256), holding the
 * key while the first request runs and its encrypted answer for 24 hours.
 */
export class Migration20261125015605 extends Migration {
  override name = 'Migration20261125015605';

  override up(): void | Promise<void> {
    this.addSql(
      `create table "idempotency_keys" ("id" uuid not null, "workspace_id" uuid null, "scope_hash" text not null, "request_hash" text not null, "state" text not null default 'in_flight', "locked_until" timestamptz null, "response_status" int null, "response" text null, "created_at" timestamptz not null, primary key ("id"));`,
    );
    this.addSql(
      `alter table "idempotency_keys" add constraint "idempotency_keys_scope_hash_unique" unique ("scope_hash");`,
    );
    this.addSql(`create index "idempotency_keys_created_at_index" on "idempotency_keys" ("created_at");`);

    this.addSql(
      `alter table "idempotency_keys" add constraint "idempotency_keys_workspace_id_foreign" foreign key ("workspace_id") references "workspaces" ("id") on delete cascade;`,
    );
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "idempotency_keys" cascade;`);
  }
}
