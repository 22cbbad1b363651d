import { Migration } from '@mikro-orm/migrations';

export class Migration20261128030144 extends Migration {
  override name = 'Migration20261128030144';

  override up(): void | Promise<void> {
    this.addSql(`alter table "monitors" add "certificate" jsonb null;`);

    this.addSql(`alter table "monitor_checks" add "certificate" jsonb null;`);

    this.addSql(`alter table "alert_rules" add "days_before" int null, add "fired_for" text null;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "alert_rules" drop column "days_before", drop column "fired_for";`);

    this.addSql(`alter table "monitor_checks" drop column "certificate";`);

    this.addSql(`alter table "monitors" drop column "certificate";`);
  }
}
