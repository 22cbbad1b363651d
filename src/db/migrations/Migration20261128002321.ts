import { Migration } from '@mikro-orm/migrations';

/**
 * Code-host connections are destinations too: a sealed credential, a change time (existing destinations take the
 * migration's), and one connection per provider and namespace in a workspace.
 */
export class Migration20261128002321 extends Migration {
  override name = 'Migration20261128002321';

  override up(): void | Promise<void> {
    this.addSql(
      `alter table "alert_destinations" add "credential" text null, add "updated_at" timestamptz not null default now();`,
    );
    this.addSql(`alter table "alert_destinations" alter column "updated_at" drop default;`);
    this.addSql(
      `create unique index "alert_destinations_code_host_namespace_unique" on "alert_destinations" ("workspace_id", "type", lower("config"->>'namespace')) where "type" in ('github', 'gitlab');`,
    );
  }

  override down(): void | Promise<void> {
    this.addSql(`drop index "alert_destinations_code_host_namespace_unique";`);
    this.addSql(`alter table "alert_destinations" drop column "credential", drop column "updated_at";`);
  }
}
