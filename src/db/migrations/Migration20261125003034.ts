import { Migration } from '@mikro-orm/migrations';

/** Crawls: the crawl and its URLs (the frontier while pending, the results once fetched). */
export class Migration20261125003034 extends Migration {
  override name = 'Migration20261125003034';

  override up(): void | Promise<void> {
    this.addSql(
      `create table "crawls" ("id" uuid not null, "workspace_id" uuid not null, "url" text not null, "origin" text not null, "max_pages" int not null, "max_depth" int not null, "include" text[] not null, "exclude" text[] not null, "request_key" text null, "request_hash" text null, "status" text not null default 'queued', "stop_reason" text null, "failure" jsonb null, "sitemaps_read_at" timestamptz null, "depth_limited" boolean not null default false, "created_by_id" uuid null, "created_at" timestamptz not null, "started_at" timestamptz null, "completed_at" timestamptz null, primary key ("id"));`,
    );
    this.addSql(
      `create index "crawls_unfinished_index" on "crawls" ("created_at") where "status" in ('queued', 'running');`,
    );
    this.addSql(`create index "crawls_workspace_id_created_at_index" on "crawls" ("workspace_id", "created_at");`);
    this.addSql(
      `alter table "crawls" add constraint "crawls_workspace_id_request_key_unique" unique ("workspace_id", "request_key");`,
    );

    this.addSql(
      `create table "crawl_urls" ("id" uuid not null, "crawl_id" uuid not null, "seq" bigserial, "url" text not null, "depth" int not null, "found_via" text not null, "state" text not null default 'pending', "skip_reason" text null, "final_url" text null, "status_code" int null, "title" text null, "canonical" text null, "noindex" boolean not null default false, primary key ("id"));`,
    );
    this.addSql(`create index "crawl_urls_crawl_id_state_seq_index" on "crawl_urls" ("crawl_id", "state", "seq");`);
    this.addSql(`alter table "crawl_urls" add constraint "crawl_urls_crawl_id_url_unique" unique ("crawl_id", "url");`);

    this.addSql(
      `alter table "crawls" add constraint "crawls_workspace_id_foreign" foreign key ("workspace_id") references "workspaces" ("id") on delete cascade;`,
    );
    this.addSql(
      `alter table "crawls" add constraint "crawls_created_by_id_foreign" foreign key ("created_by_id") references "users" ("id") on delete set null;`,
    );

    this.addSql(
      `alter table "crawl_urls" add constraint "crawl_urls_crawl_id_foreign" foreign key ("crawl_id") references "crawls" ("id") on delete cascade;`,
    );
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "crawl_urls" drop constraint "crawl_urls_crawl_id_foreign";`);

    this.addSql(`drop table if exists "crawls" cascade;`);
    this.addSql(`drop table if exists "crawl_urls" cascade;`);
  }
}
