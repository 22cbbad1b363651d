import { Migration } from '@mikro-orm/migrations';

/** The `events_notify` trigger of OutboxEvent: each statement that records events notifies `vigil_events`. */
export class Migration20261129081820 extends Migration {
  override name = 'Migration20261129081820';

  override up(): void | Promise<void> {
    this.addSql(
      `create or replace function "events_events_notify_fn"() returns trigger as $$ begin perform pg_notify('vigil_events', ''); return null; end; $$ language plpgsql;`,
    );
    this.addSql(
      `create trigger "events_notify" AFTER INSERT on "events" for each STATEMENT execute function "events_events_notify_fn"();`,
    );
  }

  override down(): void | Promise<void> {
    this.addSql(`drop trigger if exists "events_notify" on "events";`);
    this.addSql(`drop function if exists "events_events_notify_fn"();`);
  }
}
