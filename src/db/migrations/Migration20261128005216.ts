import { Migration } from '@mikro-orm/migrations';

/** A monitor's response assertions; existing monitors have none. */
export class Migration20261128005216 extends Migration {
  override name = 'Migration20261128005216';

  override up(): void | Promise<void> {
    this.addSql(`alter table "monitors" add "assertions" jsonb not null default '[]';`);
    this.addSql(`alter table "monitors" alter column "assertions" drop default;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "monitors" drop column "assertions";`);
  }
}
