import { Migration } from '@mikro-orm/migrations';

/** Where a release check's change comes from (code host, repository, commit); null for checks opened before. */
export class Migration20261127225317 extends Migration {
  override name = 'Migration20261127225317';

  override up(): void | Promise<void> {
    this.addSql(`alter table "release_checks" add "source" jsonb null;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "release_checks" drop column "source";`);
  }
}
