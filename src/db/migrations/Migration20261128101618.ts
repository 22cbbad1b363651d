import { Migration } from '@mikro-orm/migrations';

export class Migration20261128101618 extends Migration {
  override name = 'Migration20261128101618';

  override up(): void | Promise<void> {
    this.addSql(
      `create table "held_alerts" ("id" uuid not null, "workspace_id" uuid not null, "monitor_id" uuid not null, "parent_id" uuid not null, "rule_id" uuid not null, "region" text not null, "status_code" int null, "message" text null, "checked_at" timestamptz not null, "held_at" timestamptz not null, primary key ("id"));`,
    );
    this.addSql(`create index "held_alerts_parent_id_held_at_index" on "held_alerts" ("parent_id", "held_at");`);

    this.addSql(`alter table "monitors" add "parent_id" uuid null;`);
    this.addSql(
      `alter table "monitors" add constraint "monitors_parent_id_foreign" foreign key ("parent_id") references "monitors" ("id") on delete set null;`,
    );

    this.addSql(`alter table "alert_rules" add "held_since" timestamptz null;`);

    this.addSql(
      `alter table "held_alerts" add constraint "held_alerts_workspace_id_foreign" foreign key ("workspace_id") references "workspaces" ("id") on delete cascade;`,
    );
    this.addSql(
      `alter table "held_alerts" add constraint "held_alerts_monitor_id_foreign" foreign key ("monitor_id") references "monitors" ("id") on delete cascade;`,
    );
    this.addSql(
      `alter table "held_alerts" add constraint "held_alerts_parent_id_foreign" foreign key ("parent_id") references "monitors" ("id") on delete cascade;`,
    );
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "held_alerts" cascade;`);

    this.addSql(`alter table "monitors" drop constraint "monitors_parent_id_foreign";`);

    this.addSql(`alter table "alert_rules" drop column "held_since";`);

    this.addSql(`alter table "monitors" drop column "parent_id";`);
  }
}
