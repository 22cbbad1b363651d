import { Migration } from '@mikro-orm/migrations';

export class Migration20261129010907 extends Migration {
  override name = 'Migration20261129010907';

  override up(): void | Promise<void> {
    this.addSql(`alter table "maintenance_windows" add "declaration_key" text null;`);
    this.addSql(
      `create unique index "maintenance_windows_declaration_key_unique" on "maintenance_windows" ("workspace_id", "declaration_key") where "declaration_key" is not null;`,
    );
  }

  override down(): void | Promise<void> {
    this.addSql(`drop index "maintenance_windows_declaration_key_unique";`);
    this.addSql(`alter table "maintenance_windows" drop column "declaration_key";`);
  }
}
