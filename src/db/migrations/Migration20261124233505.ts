import { Migration } from '@mikro-orm/migrations';

/** Alerts: the event outbox, destinations, rules per monitor and the delivery log. */
export class Migration20261124233505 extends Migration {
  override name = 'Migration20261124233505';

  override up(): void | Promise<void> {
    this.addSql(
      `create table "events" ("id" uuid not null, "workspace_id" uuid not null, "type" text not null, "data" jsonb not null, "destination_ids" uuid[] not null, "created_at" timestamptz not null, "relayed_at" timestamptz null, primary key ("id"));`,
    );
    this.addSql(`create index "events_unrelayed_index" on "events" ("created_at") where "relayed_at" is null;`);

    this.addSql(
      `create table "alert_rules" ("id" uuid not null, "monitor_id" uuid not null, "event" text not null, "destination_ids" uuid[] not null, "consecutive_failures" int not null default 1, "min_regions" int not null default 1, "threshold_ms" int null, "notify_recovery" boolean not null default true, "reminder_minutes" int null, "enabled" boolean not null default true, "state" text not null default 'ok', "streaks" jsonb not null, "notified_at" timestamptz null, "created_at" timestamptz not null, primary key ("id"));`,
    );
    this.addSql(
      `create index "alert_rules_monitor_id_created_at_index" on "alert_rules" ("monitor_id", "created_at");`,
    );

    this.addSql(
      `create table "alert_destinations" ("id" uuid not null, "workspace_id" uuid not null, "name" text not null, "type" text not null, "config" jsonb not null, "events" text[] not null, "enabled" boolean not null default true, "disabled_reason" text null, "secret" text null, "previous_secret" text null, "previous_secret_expires_at" timestamptz null, "created_at" timestamptz not null, primary key ("id"));`,
    );
    this.addSql(
      `create index "alert_destinations_workspace_id_created_at_index" on "alert_destinations" ("workspace_id", "created_at");`,
    );

    this.addSql(
      `create table "webhook_deliveries" ("id" uuid not null, "workspace_id" uuid not null, "event_id" uuid not null, "destination_id" uuid not null, "status" text not null default 'pending', "attempts" jsonb not null, "next_attempt_at" timestamptz null, "request" jsonb null, "created_at" timestamptz not null, primary key ("id"));`,
    );
    this.addSql(`create index "webhook_deliveries_event_id_index" on "webhook_deliveries" ("event_id");`);
    this.addSql(
      `create index "webhook_deliveries_destination_id_created_at_index" on "webhook_deliveries" ("destination_id", "created_at");`,
    );
    this.addSql(
      `create index "webhook_deliveries_workspace_id_created_at_index" on "webhook_deliveries" ("workspace_id", "created_at");`,
    );

    this.addSql(
      `alter table "events" add constraint "events_workspace_id_foreign" foreign key ("workspace_id") references "workspaces" ("id") on delete cascade;`,
    );

    this.addSql(
      `alter table "alert_rules" add constraint "alert_rules_monitor_id_foreign" foreign key ("monitor_id") references "monitors" ("id") on delete cascade;`,
    );

    this.addSql(
      `alter table "alert_destinations" add constraint "alert_destinations_workspace_id_foreign" foreign key ("workspace_id") references "workspaces" ("id") on delete cascade;`,
    );

    this.addSql(
      `alter table "webhook_deliveries" add constraint "webhook_deliveries_workspace_id_foreign" foreign key ("workspace_id") references "workspaces" ("id") on delete cascade;`,
    );
    this.addSql(
      `alter table "webhook_deliveries" add constraint "webhook_deliveries_event_id_foreign" foreign key ("event_id") references "events" ("id") on delete cascade;`,
    );
    this.addSql(
      `alter table "webhook_deliveries" add constraint "webhook_deliveries_destination_id_foreign" foreign key ("destination_id") references "alert_destinations" ("id") on delete cascade;`,
    );
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "webhook_deliveries" drop constraint "webhook_deliveries_event_id_foreign";`);
    this.addSql(`alter table "webhook_deliveries" drop constraint "webhook_deliveries_destination_id_foreign";`);

    this.addSql(`drop table if exists "events" cascade;`);
    this.addSql(`drop table if exists "alert_rules" cascade;`);
    this.addSql(`drop table if exists "alert_destinations" cascade;`);
    this.addSql(`drop table if exists "webhook_deliveries" cascade;`);
  }
}
