import { Migration } from '@mikro-orm/migrations';

/** Accessibility scans and the attestations that make one a monitor's baseline. */
export class Migration20261124230927 extends Migration {
  override name = 'Migration20261124230927';

  override up(): void | Promise<void> {
    this.addSql(
      `create table "a11y_scans" ("id" uuid not null, "workspace_id" uuid not null, "monitor_id" uuid not null, "url" text not null, "status" text not null default 'queued', "viewports" text[] not null, "tags" text[] not null, "failure" jsonb null, "axe_version" text null, "rules_run" jsonb not null, "findings" jsonb not null, "needs_review" jsonb not null, "summary" jsonb null, "created_by_id" uuid null, "created_at" timestamptz not null, "completed_at" timestamptz null, primary key ("id"));`,
    );
    this.addSql(
      `create index "a11y_scans_unfinished_index" on "a11y_scans" ("created_at") where "status" in ('queued', 'running');`,
    );
    this.addSql(`create index "a11y_scans_monitor_id_created_at_index" on "a11y_scans" ("monitor_id", "created_at");`);
    this.addSql(
      `create index "a11y_scans_workspace_id_created_at_index" on "a11y_scans" ("workspace_id", "created_at");`,
    );

    this.addSql(
      `create table "a11y_attestations" ("id" uuid not null, "scan_id" uuid not null, "monitor_id" uuid not null, "attested_by_id" uuid null, "note" text not null, "created_at" timestamptz not null, primary key ("id"));`,
    );
    this.addSql(
      `create index "a11y_attestations_monitor_id_created_at_index" on "a11y_attestations" ("monitor_id", "created_at");`,
    );

    this.addSql(
      `alter table "a11y_scans" add constraint "a11y_scans_workspace_id_foreign" foreign key ("workspace_id") references "workspaces" ("id") on delete cascade;`,
    );
    this.addSql(
      `alter table "a11y_scans" add constraint "a11y_scans_monitor_id_foreign" foreign key ("monitor_id") references "monitors" ("id") on delete cascade;`,
    );
    this.addSql(
      `alter table "a11y_scans" add constraint "a11y_scans_created_by_id_foreign" foreign key ("created_by_id") references "users" ("id") on delete set null;`,
    );

    this.addSql(
      `alter table "a11y_attestations" add constraint "a11y_attestations_scan_id_foreign" foreign key ("scan_id") references "a11y_scans" ("id") on delete cascade;`,
    );
    this.addSql(
      `alter table "a11y_attestations" add constraint "a11y_attestations_monitor_id_foreign" foreign key ("monitor_id") references "monitors" ("id") on delete cascade;`,
    );
    this.addSql(
      `alter table "a11y_attestations" add constraint "a11y_attestations_attested_by_id_foreign" foreign key ("attested_by_id") references "users" ("id") on delete set null;`,
    );
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "a11y_attestations" drop constraint "a11y_attestations_scan_id_foreign";`);

    this.addSql(`drop table if exists "a11y_scans" cascade;`);
    this.addSql(`drop table if exists "a11y_attestations" cascade;`);
  }
}
