import { Migration } from '@mikro-orm/migrations';

/**
 * Deliveries claimed from PostgreSQL per destination, in order: events get a sequence number and an ordering key
 * (a monitor's down and recovery); deliveries get the event's number, their lane (destination and ordering key) and a
 * claim (worker, until when); indexes for the claim's scan and its order check. Existing rows are filled in, so
 * deliveries pending at the upgrade are still sent.
 */
export class Migration20261125003642 extends Migration {
  override name = 'Migration20261125003642';

  override up(): void | Promise<void> {
    this.addSql(`alter table "events" add "ordering_key" text null, add "seq" bigserial;`);
    // Existing events numbered in the order they were recorded (the new column was filled in the order rows lie).
    this.addSql(
      `update "events" set "seq" = numbered."n" from (select "id", row_number() over (order by "created_at", "id") as "n" from "events") numbered where "events"."id" = numbered."id";`,
    );
    this.addSql(
      `select setval(pg_get_serial_sequence('events', 'seq'), greatest((select max("seq") from "events"), 1));`,
    );
    this.addSql(
      `update "events" set "ordering_key" = "data"->'monitor'->>'id' where "type" in ('monitor.down', 'monitor.recovered');`,
    );
    this.addSql(`drop index "events_unrelayed_index";`);
    this.addSql(`create index "events_unrelayed_index" on "events" ("seq") where "relayed_at" is null;`);

    this.addSql(
      `alter table "webhook_deliveries" add "event_seq" bigint null, add "lane" text null, add "claimed_by" uuid null, add "claimed_until" timestamptz null;`,
    );
    this.addSql(
      `update "webhook_deliveries" d set "event_seq" = e."seq", "lane" = d."destination_id" || ':' || e."ordering_key" from "events" e where e."id" = d."event_id";`,
    );
    this.addSql(
      `update "webhook_deliveries" set "next_attempt_at" = "created_at" where "status" in ('pending', 'retrying') and "next_attempt_at" is null;`,
    );
    this.addSql(`alter table "webhook_deliveries" alter column "event_seq" set not null;`);
    this.addSql(
      `create index "webhook_deliveries_lane_index" on "webhook_deliveries" ("lane", "event_seq") where "status" in ('pending', 'retrying') and "lane" is not null;`,
    );
    this.addSql(
      `create index "webhook_deliveries_due_index" on "webhook_deliveries" ("destination_id", "next_attempt_at") where "status" in ('pending', 'retrying');`,
    );
  }

  override down(): void | Promise<void> {
    this.addSql(`drop index "webhook_deliveries_lane_index";`);
    this.addSql(`drop index "webhook_deliveries_due_index";`);
    this.addSql(
      `alter table "webhook_deliveries" drop column "event_seq", drop column "lane", drop column "claimed_by", drop column "claimed_until";`,
    );

    this.addSql(`drop index "events_unrelayed_index";`);
    this.addSql(`alter table "events" drop column "ordering_key", drop column "seq";`);
    this.addSql(`create index "events_unrelayed_index" on "events" ("created_at") where "relayed_at" is null;`);
  }
}
