import { Migration } from '@mikro-orm/migrations';

/**
 * Every commit that records events notifies `vigil_events` (once per statement; PostgreSQL sends notifications at
 * commit, folds identical ones of a transaction into one, and sends none on rollback). Workers listen and relay at
 * once instead of polling the outbox ten times a second (EventNotifications).
 */
export class Migration20261129080000 extends Migration {
  override name = 'Migration20261129080000';

  override up(): void | Promise<void> {
    this.addSql(`create function "vigil_notify_events"() returns trigger language plpgsql as $$
begin
  perform pg_notify('vigil_events', '');
  return null;
end $$;`);
    this.addSql(
      `create trigger "events_notify" after insert on "events" for each statement execute function "vigil_notify_events"();`,
    );
  }

  override down(): void | Promise<void> {
    this.addSql(`drop trigger "events_notify" on "events";`);
    this.addSql(`drop function "vigil_notify_events"();`);
  }
}
