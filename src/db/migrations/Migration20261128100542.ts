import { Migration } from '@mikro-orm/migrations';

export class Migration20261128100542 extends Migration {
  override name = 'Migration20261128100542';

  override up(): void | Promise<void> {
    this.addSql(
      `create table "maintenance_windows" ("id" uuid not null, "workspace_id" uuid not null, "title" text not null, "message" text null, "mode" text not null default 'mute_alerts', "all_monitors" boolean not null default false, "monitor_ids" uuid[] not null, "starts_at" timestamptz not null, "duration_minutes" int not null, "recurrence" text null, "timezone" text not null default 'UTC', "ended_at" timestamptz null, "announced_start" timestamptz null, "next_transition_at" timestamptz null, "created_at" timestamptz not null, "updated_at" timestamptz not null, primary key ("id"));`,
    );
    this.addSql(
      `create index "maintenance_windows_next_transition_at_index" on "maintenance_windows" ("next_transition_at");`,
    );
    this.addSql(
      `create index "maintenance_windows_workspace_id_created_at_index" on "maintenance_windows" ("workspace_id", "created_at");`,
    );

    this.addSql(`alter table "monitor_checks" add "maintenance_window_id" uuid null;`);

    this.addSql(`drop index "monitor_check_rollups_history_index";`);
    this.addSql(`alter table "monitor_check_rollups" add "maintenance" int not null default 0;`);
    this.addSql(
      `create index "monitor_check_rollups_history_index" on "monitor_check_rollups" ("monitor_id", "hour") include ("region", "checks", "passed", "response_ms_sum", "maintenance");`,
    );

    this.addSql(
      `alter table "maintenance_windows" add constraint "maintenance_windows_workspace_id_foreign" foreign key ("workspace_id") references "workspaces" ("id") on delete cascade;`,
    );
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "maintenance_windows" cascade;`);

    this.addSql(`drop index "monitor_check_rollups_history_index";`);
    this.addSql(`alter table "monitor_check_rollups" drop column "maintenance";`);
    this.addSql(
      `create index "monitor_check_rollups_history_index" on "monitor_check_rollups" ("monitor_id", "hour") include ("region", "checks", "passed", "response_ms_sum");`,
    );

    this.addSql(`alter table "monitor_checks" drop column "maintenance_window_id";`);
  }
}
