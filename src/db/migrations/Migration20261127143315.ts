import { Migration } from '@mikro-orm/migrations';

/**
 * Evidence without noise (decision 0012): what each monitor has seen move on its own, its visual threshold and the
 * metadata of its last passing check; visual and metadata changes.
 */
export class Migration20261127143315 extends Migration {
  override name = 'Migration20261127143315';

  override up(): void | Promise<void> {
    this.addSql(
      `alter table "monitors" add "visual_threshold" double precision not null default 0.01, add "volatile" jsonb not null default '{"lines":[],"regions":[]}', add "metadata" jsonb null;`,
    );
    // Existing monitors start with nothing learned; new ones get it from the entity.
    this.addSql(`alter table "monitors" alter column "volatile" drop default;`);
    this.addSql(
      `alter table "changes" add "visual" jsonb null, add "metadata" jsonb null, add "diff_screenshot_key" text null;`,
    );
  }

  override down(): void | Promise<void> {
    this.addSql(
      `alter table "changes" drop column "visual", drop column "metadata", drop column "diff_screenshot_key";`,
    );
    this.addSql(
      `alter table "monitors" drop column "visual_threshold", drop column "volatile", drop column "metadata";`,
    );
  }
}
