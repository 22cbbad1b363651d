import { Migration } from '@mikro-orm/migrations';

export class Migration20261122173256 extends Migration {
  override name = 'Migration20261122173256';

  override up(): void | Promise<void> {
    this.addSql(
      `create table "release_checks" ("id" uuid not null, "user_id" uuid not null, "name" text not null, "request_key" text not null, "request_hash" text not null, "production_url" text not null, "preview_url" text not null, "pages" jsonb not null, "viewports" text[] not null, "mask_selectors" jsonb not null, "mismatch_threshold" double precision not null, "revision" int not null default 1, "collection_status" text not null default 'queued', "gate" text not null default 'pending', "summary" jsonb not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "completed_at" timestamptz null, primary key ("id"));`,
    );
    this.addSql(
      `create index "release_checks_user_id_created_at_index" on "release_checks" ("user_id", "created_at");`,
    );
    this.addSql(
      `alter table "release_checks" add constraint "release_checks_user_id_request_key_unique" unique ("user_id", "request_key");`,
    );

    this.addSql(
      `create table "release_check_reviews" ("id" uuid not null, "check_id" uuid not null, "revision" int not null, "decision" text not null, "note" text not null, "reviewer_id" uuid not null, "scope" jsonb not null, "decided_at" timestamptz not null, primary key ("id"));`,
    );
    this.addSql(
      `create index "release_check_reviews_check_id_decided_at_index" on "release_check_reviews" ("check_id", "decided_at");`,
    );
    this.addSql(
      `alter table "release_check_reviews" add constraint "release_check_reviews_check_id_revision_unique" unique ("check_id", "revision");`,
    );

    this.addSql(
      `create table "release_check_artifacts" ("id" uuid not null, "check_id" uuid not null, "revision" int not null, "page_index" int not null, "viewport" text not null, "state" text not null default 'collecting', "production" jsonb null, "preview" jsonb null, "comparison" jsonb null, primary key ("id"));`,
    );
    this.addSql(
      `create index "release_check_artifacts_check_id_revision_index" on "release_check_artifacts" ("check_id", "revision");`,
    );
    this.addSql(
      `alter table "release_check_artifacts" add constraint "release_check_artifacts_check_id_revision_page_in_e6fc7_unique" unique ("check_id", "revision", "page_index", "viewport");`,
    );

    this.addSql(
      `alter table "release_checks" add constraint "release_checks_user_id_foreign" foreign key ("user_id") references "users" ("id") on delete cascade;`,
    );

    this.addSql(
      `alter table "release_check_reviews" add constraint "release_check_reviews_check_id_foreign" foreign key ("check_id") references "release_checks" ("id") on delete cascade;`,
    );
    this.addSql(
      `alter table "release_check_reviews" add constraint "release_check_reviews_reviewer_id_foreign" foreign key ("reviewer_id") references "users" ("id") on delete restrict;`,
    );

    this.addSql(
      `alter table "release_check_artifacts" add constraint "release_check_artifacts_check_id_foreign" foreign key ("check_id") references "release_checks" ("id") on delete cascade;`,
    );
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "release_check_reviews" drop constraint "release_check_reviews_check_id_foreign";`);
    this.addSql(`alter table "release_check_artifacts" drop constraint "release_check_artifacts_check_id_foreign";`);

    this.addSql(`drop table if exists "release_checks" cascade;`);
    this.addSql(`drop table if exists "release_check_reviews" cascade;`);
    this.addSql(`drop table if exists "release_check_artifacts" cascade;`);
  }
}
