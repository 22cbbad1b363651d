import { Migration } from '@mikro-orm/migrations';

/**
 * Review that scales (decision 0013): each pair's fingerprint and decision; each review's record of every pair.
 */
export class Migration20261127144941 extends Migration {
  override name = 'Migration20261127144941';

  override up(): void | Promise<void> {
    // Reviews recorded before pair decisions recorded no pairs.
    this.addSql(`alter table "release_check_reviews" add "pairs" jsonb not null default '[]';`);
    this.addSql(`alter table "release_check_reviews" alter column "pairs" drop default;`);
    this.addSql(`alter table "release_check_artifacts" add "fingerprint" text null, add "decision" jsonb null;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "release_check_artifacts" drop column "fingerprint", drop column "decision";`);
    this.addSql(`alter table "release_check_reviews" drop column "pairs";`);
  }
}
