import { Migration } from '@mikro-orm/migrations';

export class Migration20261122194825 extends Migration {
  override name = 'Migration20261122194825';

  override up(): void | Promise<void> {
    this.addSql(
      `create table "monitors" ("id" uuid not null, "user_id" uuid not null, "name" text not null, "url" text not null, "mode" text not null default 'http', "interval_seconds" int not null default 300, "timeout_seconds" int not null default 30, "expected_status_min" int not null default 200, "expected_status_max" int not null default 399, "keyword" text null, "selector" text null, "regions" text[] not null, "tracked_values" jsonb not null, "status" text not null default 'pending', "paused" boolean not null default false, "region_status" jsonb not null, "badge_token" text null, "last_checked_at" timestamptz null, "next_check_at" timestamptz null, "content_text" text null, "content_hash" text null, "screenshot_key" text null, "tracked_state" jsonb not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, primary key ("id"));`,
    );
    this.addSql(`alter table "monitors" add constraint "monitors_badge_token_unique" unique ("badge_token");`);
    this.addSql(`create index "monitors_due_index" on "monitors" ("next_check_at") where not "paused";`);
    this.addSql(`create index "monitors_user_id_created_at_index" on "monitors" ("user_id", "created_at");`);

    this.addSql(
      `create table "tracked_value_readings" ("id" uuid not null, "monitor_id" uuid not null, "check_id" uuid not null, "name" text not null, "kind" text not null, "raw" text null, "amount" double precision null, "currency" text null, "region" text not null, "captured_at" timestamptz not null, primary key ("id"));`,
    );
    this.addSql(
      `create index "tracked_value_readings_monitor_id_captured_at_index" on "tracked_value_readings" ("monitor_id", "captured_at");`,
    );
    this.addSql(
      `alter table "tracked_value_readings" add constraint "tracked_value_readings_check_id_name_unique" unique ("check_id", "name");`,
    );

    this.addSql(
      `create table "monitor_checks" ("id" uuid not null, "monitor_id" uuid not null, "region" text not null, "trigger" text not null, "scheduled_for" timestamptz not null, "checked_at" timestamptz not null, "ok" boolean not null, "status_code" int null, "response_time_ms" int not null, "failure" text null, "message" text null, "content_hash" text null, primary key ("id"));`,
    );
    this.addSql(`create index "monitor_checks_checked_at_index" on "monitor_checks" ("checked_at");`);
    this.addSql(
      `create index "monitor_checks_monitor_id_checked_at_index" on "monitor_checks" ("monitor_id", "checked_at");`,
    );
    this.addSql(
      `alter table "monitor_checks" add constraint "monitor_checks_monitor_id_region_scheduled_for_unique" unique ("monitor_id", "region", "scheduled_for");`,
    );

    this.addSql(
      `create table "monitor_check_rollups" ("monitor_id" uuid not null, "region" text not null, "hour" timestamptz not null, "checks" int not null, "passed" int not null, "response_ms_sum" bigint not null, primary key ("monitor_id", "region", "hour"));`,
    );

    this.addSql(
      `create table "changes" ("id" uuid not null, "user_id" uuid not null, "monitor_id" uuid not null, "kind" text not null, "region" text not null, "check_id" uuid not null, "detected_at" timestamptz not null, "summary" jsonb not null, "diff" jsonb null, "value" jsonb null, "before_screenshot_key" text null, "after_screenshot_key" text null, "feedback" text null, "archived" boolean not null default false, primary key ("id"));`,
    );
    this.addSql(`create index "changes_monitor_id_detected_at_index" on "changes" ("monitor_id", "detected_at");`);
    this.addSql(
      `create index "changes_user_id_archived_detected_at_index" on "changes" ("user_id", "archived", "detected_at");`,
    );

    this.addSql(
      `alter table "monitors" add constraint "monitors_user_id_foreign" foreign key ("user_id") references "users" ("id") on delete cascade;`,
    );

    this.addSql(
      `alter table "tracked_value_readings" add constraint "tracked_value_readings_monitor_id_foreign" foreign key ("monitor_id") references "monitors" ("id") on delete cascade;`,
    );

    this.addSql(
      `alter table "monitor_checks" add constraint "monitor_checks_monitor_id_foreign" foreign key ("monitor_id") references "monitors" ("id") on delete cascade;`,
    );

    this.addSql(
      `alter table "monitor_check_rollups" add constraint "monitor_check_rollups_monitor_id_foreign" foreign key ("monitor_id") references "monitors" ("id") on delete cascade;`,
    );

    this.addSql(
      `alter table "changes" add constraint "changes_user_id_foreign" foreign key ("user_id") references "users" ("id") on delete cascade;`,
    );
    this.addSql(
      `alter table "changes" add constraint "changes_monitor_id_foreign" foreign key ("monitor_id") references "monitors" ("id") on delete cascade;`,
    );
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "tracked_value_readings" drop constraint "tracked_value_readings_monitor_id_foreign";`);
    this.addSql(`alter table "monitor_checks" drop constraint "monitor_checks_monitor_id_foreign";`);
    this.addSql(`alter table "monitor_check_rollups" drop constraint "monitor_check_rollups_monitor_id_foreign";`);
    this.addSql(`alter table "changes" drop constraint "changes_monitor_id_foreign";`);

    this.addSql(`drop table if exists "monitors" cascade;`);
    this.addSql(`drop table if exists "tracked_value_readings" cascade;`);
    this.addSql(`drop table if exists "monitor_checks" cascade;`);
    this.addSql(`drop table if exists "monitor_check_rollups" cascade;`);
    this.addSql(`drop table if exists "changes" cascade;`);
  }
}
