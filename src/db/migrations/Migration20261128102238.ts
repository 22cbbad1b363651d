import { Migration } from '@mikro-orm/migrations';

export class Migration20261128102238 extends Migration {
  override name = 'Migration20261128102238';

  override up(): void | Promise<void> {
    this.addSql(
      `create table "status_page_subscribers" ("id" uuid not null, "workspace_id" uuid not null, "status_page_id" uuid not null, "kind" text not null, "address" text not null, "component_ids" uuid[] not null, "confirmed_at" timestamptz null, "created_at" timestamptz not null, primary key ("id"));`,
    );
    this.addSql(
      `create index "status_page_subscribers_status_page_id_created_at_index" on "status_page_subscribers" ("status_page_id", "created_at");`,
    );
    this.addSql(
      `alter table "status_page_subscribers" add constraint "status_page_subscribers_status_page_id_address_unique" unique ("status_page_id", "address");`,
    );

    this.addSql(
      `create table "subscriber_notifications" ("id" uuid not null, "workspace_id" uuid not null, "subscriber_id" uuid not null, "kind" text not null, "content" jsonb not null, "status" text not null default 'pending', "attempts" int not null default 0, "next_attempt_at" timestamptz not null, "last_error" text null, "sent_at" timestamptz null, "created_at" timestamptz not null, primary key ("id"));`,
    );
    this.addSql(
      `create index "subscriber_notifications_due_index" on "subscriber_notifications" ("next_attempt_at") where "status" = 'pending';`,
    );

    this.addSql(
      `alter table "status_page_subscribers" add constraint "status_page_subscribers_workspace_id_foreign" foreign key ("workspace_id") references "workspaces" ("id") on delete cascade;`,
    );
    this.addSql(
      `alter table "status_page_subscribers" add constraint "status_page_subscribers_status_page_id_foreign" foreign key ("status_page_id") references "status_pages" ("id") on delete cascade;`,
    );

    this.addSql(
      `alter table "subscriber_notifications" add constraint "subscriber_notifications_workspace_id_foreign" foreign key ("workspace_id") references "workspaces" ("id") on delete cascade;`,
    );
    this.addSql(
      `alter table "subscriber_notifications" add constraint "subscriber_notifications_subscriber_id_foreign" foreign key ("subscriber_id") references "status_page_subscribers" ("id") on delete cascade;`,
    );
  }

  override down(): void | Promise<void> {
    this.addSql(
      `alter table "subscriber_notifications" drop constraint "subscriber_notifications_subscriber_id_foreign";`,
    );

    this.addSql(`drop table if exists "status_page_subscribers" cascade;`);
    this.addSql(`drop table if exists "subscriber_notifications" cascade;`);
  }
}
