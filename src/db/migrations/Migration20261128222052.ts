import { Migration } from '@mikro-orm/migrations';

export class Migration20261128222052 extends Migration {
  override name = 'Migration20261128222052';

  override up(): void | Promise<void> {
    this.addSql(`alter table "status_pages" add "declaration_key" text null;`);
    this.addSql(
      `create unique index "status_pages_declaration_key_unique" on "status_pages" ("workspace_id", "declaration_key") where "declaration_key" is not null;`,
    );

    this.addSql(`alter table "monitors" add "declaration_key" text null;`);
    this.addSql(
      `create unique index "monitors_declaration_key_unique" on "monitors" ("workspace_id", "declaration_key") where "declaration_key" is not null;`,
    );

    this.addSql(`alter table "alert_rules" add "declaration_key" text null;`);
    this.addSql(
      `create unique index "alert_rules_declaration_key_unique" on "alert_rules" ("monitor_id", "declaration_key") where "declaration_key" is not null;`,
    );

    this.addSql(`alter table "alert_destinations" add "declaration_key" text null;`);
    this.addSql(
      `create unique index "alert_destinations_declaration_key_unique" on "alert_destinations" ("workspace_id", "declaration_key") where "declaration_key" is not null;`,
    );
  }

  override down(): void | Promise<void> {
    this.addSql(`drop index "alert_destinations_declaration_key_unique";`);
    this.addSql(`alter table "alert_destinations" drop column "declaration_key";`);

    this.addSql(`drop index "alert_rules_declaration_key_unique";`);
    this.addSql(`alter table "alert_rules" drop column "declaration_key";`);

    this.addSql(`drop index "monitors_declaration_key_unique";`);
    this.addSql(`alter table "monitors" drop column "declaration_key";`);

    this.addSql(`drop index "status_pages_declaration_key_unique";`);
    this.addSql(`alter table "status_pages" drop column "declaration_key";`);
  }
}
