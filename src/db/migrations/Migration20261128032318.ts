import { Migration } from '@mikro-orm/migrations';

export class Migration20261128032318 extends Migration {
  override name = 'Migration20261128032318';

  override up(): void | Promise<void> {
    this.addSql(
      `alter table "monitors" add "heartbeat" jsonb null, add "heartbeat_token" text null, add "heartbeat_pinged_at" timestamptz null, add "heartbeat_started_at" timestamptz null;`,
    );
    this.addSql(`alter table "monitors" alter column "url" drop not null;`);
    this.addSql(`alter table "monitors" add constraint "monitors_heartbeat_token_unique" unique ("heartbeat_token");`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "monitors" drop constraint "monitors_heartbeat_token_unique";`);
    this.addSql(
      `alter table "monitors" drop column "heartbeat", drop column "heartbeat_token", drop column "heartbeat_pinged_at", drop column "heartbeat_started_at";`,
    );
    this.addSql(`alter table "monitors" alter column "url" set not null;`);
  }
}
