import { Migration } from '@mikro-orm/migrations';

export class Migration20261125015325 extends Migration {
  override name = 'Migration20261125015325';

  override up(): void | Promise<void> {
    this.addSql(
      `create table "status_pages" ("id" uuid not null, "workspace_id" uuid not null, "slug" text not null, "title" text not null, "description" text null, "published" boolean not null default false, "components" jsonb not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, primary key ("id"));`,
    );
    this.addSql(`alter table "status_pages" add constraint "status_pages_slug_unique" unique ("slug");`);
    this.addSql(
      `create index "status_pages_workspace_id_created_at_index" on "status_pages" ("workspace_id", "created_at");`,
    );

    this.addSql(
      `create table "status_page_incidents" ("id" uuid not null, "status_page_id" uuid not null, "title" text not null, "impact" text not null, "status" text not null, "created_at" timestamptz not null, "resolved_at" timestamptz null, primary key ("id"));`,
    );
    this.addSql(
      `create index "status_page_incidents_status_page_id_created_at_index" on "status_page_incidents" ("status_page_id", "created_at");`,
    );

    this.addSql(
      `create table "status_page_incident_updates" ("id" uuid not null, "incident_id" uuid not null, "status" text not null, "message" text not null, "created_at" timestamptz not null, primary key ("id"));`,
    );
    this.addSql(
      `create index "status_page_incident_updates_incident_id_created_at_index" on "status_page_incident_updates" ("incident_id", "created_at");`,
    );

    this.addSql(
      `create table "reports" ("id" uuid not null, "workspace_id" uuid not null, "name" text not null, "type" text not null, "monitor_ids" uuid[] not null, "period" jsonb not null, "format" text not null, "created_at" timestamptz not null, primary key ("id"));`,
    );
    this.addSql(`create index "reports_workspace_id_created_at_index" on "reports" ("workspace_id", "created_at");`);

    this.addSql(
      `create table "report_runs" ("id" uuid not null, "report_id" uuid not null, "status" text not null default 'queued', "period_from" timestamptz not null, "period_to" timestamptz not null, "created_at" timestamptz not null, "generated_at" timestamptz null, "size" int null, "sha256" text null, "artifact_key" text null, "failure" text null, primary key ("id"));`,
    );
    this.addSql(
      `create index "report_runs_unfinished_index" on "report_runs" ("created_at") where "status" in ('queued', 'generating');`,
    );
    this.addSql(`create index "report_runs_report_id_created_at_index" on "report_runs" ("report_id", "created_at");`);

    this.addSql(
      `alter table "status_pages" add constraint "status_pages_workspace_id_foreign" foreign key ("workspace_id") references "workspaces" ("id") on delete cascade;`,
    );

    this.addSql(
      `alter table "status_page_incidents" add constraint "status_page_incidents_status_page_id_foreign" foreign key ("status_page_id") references "status_pages" ("id") on delete cascade;`,
    );

    this.addSql(
      `alter table "status_page_incident_updates" add constraint "status_page_incident_updates_incident_id_foreign" foreign key ("incident_id") references "status_page_incidents" ("id") on delete cascade;`,
    );

    this.addSql(
      `alter table "reports" add constraint "reports_workspace_id_foreign" foreign key ("workspace_id") references "workspaces" ("id") on delete cascade;`,
    );

    this.addSql(
      `alter table "report_runs" add constraint "report_runs_report_id_foreign" foreign key ("report_id") references "reports" ("id") on delete cascade;`,
    );
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "status_page_incidents" drop constraint "status_page_incidents_status_page_id_foreign";`);
    this.addSql(
      `alter table "status_page_incident_updates" drop constraint "status_page_incident_updates_incident_id_foreign";`,
    );
    this.addSql(`alter table "report_runs" drop constraint "report_runs_report_id_foreign";`);

    this.addSql(`drop table if exists "status_pages" cascade;`);
    this.addSql(`drop table if exists "status_page_incidents" cascade;`);
    this.addSql(`drop table if exists "status_page_incident_updates" cascade;`);
    this.addSql(`drop table if exists "reports" cascade;`);
    this.addSql(`drop table if exists "report_runs" cascade;`);
  }
}
