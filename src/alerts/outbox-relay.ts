import { MikroORM } from '@mikro-orm/postgresql';
import { Injectable } from '@nestjs/common';
import { acrossWorkspaces } from '../common/tenancy/workspace-scope';

/** Events fanned out per statement; a relay repeats until the outbox is empty. */
export const RELAY_BATCH = 1000;
/** Held, for the length of one relay transaction, by the one worker process relaying (any distinct number). */
const RELAY_LOCK_KEY = 0x76_69_67_72; // "vigr"

/**
 * Turns committed events into deliveries: one per destination (the rule's and the workspace's subscribers of the
 * type, once each), due at once (or when their lane's retrying head is), carrying the event's `seq` and their lane
 * (destination and ordering key). One worker process relays at a time (a transaction-level advisory lock; the others
 * skip their turn), taking the oldest events by `seq`, so an event's deliveries never exist before those of an earlier
 * event with the same ordering key: the claim's order check can rely on the earlier delivery being there. A relay is
 * one statement, however many events and destinations.
 */
@Injectable()
export class OutboxRelay {
  constructor(private readonly orm: MikroORM) {}

  /** Relays up to RELAY_BATCH events; returns how many events and deliveries it made (0 when another worker relays). */
  async relay(): Promise<{ events: number; deliveries: number }> {
    return acrossWorkspaces(this.orm.em).transactional(async (tx) => {
      const { locked } = await tx.execute<{ locked: boolean }>(
        'select pg_try_advisory_xact_lock(?) as locked',
        [RELAY_LOCK_KEY],
        'get',
      );
      if (!locked) return { events: 0, deliveries: 0 };
      // A new statement, so its snapshot sees everything the previous lock holder committed.
      const [counts] = await tx.execute<{ events: number; deliveries: number }[]>(
        `with batch as (
           select id, workspace_id, type, destination_ids, seq, ordering_key from events
           where relayed_at is null order by seq limit ${RELAY_BATCH}
         ), relayed as (
           update events set relayed_at = now() where id = any(array(select id from batch))
         ), created as (
           insert into webhook_deliveries (id, workspace_id, event_id, destination_id, status, attempts,
             next_attempt_at, created_at, event_seq, lane)
           select gen_random_uuid(), batch.workspace_id, batch.id, destination.id, 'pending', '[]',
             -- Not due before the lane's retrying head: see DeliveryClaims.record.
             greatest(now(), (
               select max(earlier.next_attempt_at) from webhook_deliveries earlier
               where earlier.lane = destination.id || ':' || batch.ordering_key
                 and earlier.status in ('pending', 'retrying'))),
             now(), batch.seq, destination.id || ':' || batch.ordering_key
           from batch join alert_destinations destination
             on destination.workspace_id = batch.workspace_id and destination.enabled
             and (destination.id = any(batch.destination_ids) or batch.type = any(destination.events))
           returning 1
         )
         select (select count(*) from batch)::int as events, (select count(*) from created)::int as deliveries`,
        [],
        'all',
      );
      return counts;
    });
  }
}
