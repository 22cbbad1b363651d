import type { EntityData } from '@mikro-orm/core';
import { MikroORM } from '@mikro-orm/postgresql';
import { Injectable } from '@nestjs/common';
import { acrossWorkspaces } from '../common/tenancy/workspace-scope';
import type { EventType } from '../events/event.entity';
import type { EventPayload } from '../events/event-payloads';
import { AlertDestination } from './entities/alert-destination.entity';
import type { DeliveryAttempt, DeliveryRequest, DeliveryStatus } from './entities/webhook-delivery.entity';

/** A delivery a worker process has claimed: it attempts it now and records how it went. */
export interface ClaimedDelivery {
  id: string;
  /** Attempts recorded before this one. */
  attemptsMade: number;
  lane: string | null;
  eventSeq: string;
  event: EventPayload;
  /** The destination as it is now (its URL, secrets, whether it is enabled). */
  destination: AlertDestination;
}

/** What one attempt left: the delivery's next state. */
export interface AttemptRecord {
  id: string;
  attemptsMade: number;
  lane: string | null;
  eventSeq: string;
  status: DeliveryStatus;
  attempt: DeliveryAttempt;
  request: DeliveryRequest | null;
  nextAttemptAt: Date | null;
}

interface ClaimRow {
  id: string;
  attempts_made: number;
  lane: string | null;
  event_seq: string;
  event_id: string;
  type: EventType;
  created_at: string;
  workspace_id: string;
  data: Record<string, unknown>;
  destination: EntityData<AlertDestination>;
}

/**
 * The deliveries table as a queue, shared by every worker process. A claim takes due deliveries for a while
 * (`claimed_by`, `claimed_until`) with `FOR UPDATE SKIP LOCKED`, so two workers never take the same one; a worker
 * renews its claims while it holds them, and a claim whose worker died lapses, so another takes the delivery.
 * Recording an attempt ends the claim, only if the claim and the attempt count are still the ones it started from.
 */
@Injectable()
export class DeliveryClaims {
  constructor(private readonly orm: MikroORM) {}

  /**
   * Claims up to `limit` due deliveries, at most `perDestination` minus those `busy` of each destination's, and only
   * the first unfinished delivery of each lane: a later event waits while an earlier one with the same ordering key,
   * to the same destination, is pending or retrying. Each destination's due deliveries are read separately (a loose
   * index scan lists the destinations), so a long backlog at one never stands in front of another's; destinations are
   * visited in random order, so when `limit` runs short no destination is always last.
   */
  async claim(
    worker: string,
    limit: number,
    perDestination: number,
    busy: ReadonlyMap<string, number>,
    leaseMs: number,
  ): Promise<ClaimedDelivery[]> {
    const em = acrossWorkspaces(this.orm.em);
    const rows = await em.execute<ClaimRow[]>(
      `with recursive destinations as (
         (select destination_id from webhook_deliveries where status in ('pending', 'retrying')
          order by destination_id limit 1)
         union all
         select (select d.destination_id from webhook_deliveries d
                 where d.status in ('pending', 'retrying') and d.destination_id > destinations.destination_id
                 order by d.destination_id limit 1)
         from destinations where destinations.destination_id is not null
       ), quotas as (
         select destinations.destination_id, ? - coalesce((busy.value)::int, 0) as free
         from destinations left join jsonb_each_text(?::jsonb) busy on busy.key::uuid = destinations.destination_id
         where destinations.destination_id is not null
         order by random()
       ), picked as (
         select due.id from quotas cross join lateral (
           select d.id from webhook_deliveries d
           where d.destination_id = quotas.destination_id and d.status in ('pending', 'retrying')
             and d.next_attempt_at <= now() and (d.claimed_until is null or d.claimed_until < now())
             -- The first unfinished delivery of its lane (a scalar subquery: one probe of the lane index).
             and (d.lane is null or d.event_seq <= (
               select min(earlier.event_seq) from webhook_deliveries earlier
               where earlier.lane = d.lane and earlier.status in ('pending', 'retrying')))
           order by d.next_attempt_at
           limit quotas.free
           for update skip locked
         ) due
         where quotas.free > 0
         limit ?
       )
       update webhook_deliveries delivery
       set claimed_by = ?, claimed_until = now() + make_interval(secs => ? / 1000.0)
       from picked, events event, alert_destinations destination
       where delivery.id = picked.id and event.id = delivery.event_id and destination.id = delivery.destination_id
       returning delivery.id, jsonb_array_length(delivery.attempts) as attempts_made,
         delivery.lane, delivery.event_seq, event.id as event_id, event.type, event.workspace_id, event.data,
         to_char(event.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as created_at,
         to_jsonb(destination) as destination`,
      [perDestination, JSON.stringify(Object.fromEntries(busy)), limit, worker, leaseMs],
      'all',
    );
    return rows.map((row) => ({
      id: row.id,
      attemptsMade: row.attempts_made,
      lane: row.lane,
      eventSeq: row.event_seq,
      // Recorded through recordEvent, whose `data` is typed by the event's webhook in openapi.yaml.
      event: {
        id: row.event_id,
        type: row.type,
        created_at: row.created_at,
        workspace_id: row.workspace_id,
        data: row.data,
      } as EventPayload,
      destination: em.map(AlertDestination, row.destination),
    }));
  }

  /**
   * Records attempts and ends their claims, and disables the destinations that answered 410 Gone: one statement, so
   * all or nothing. The rest of a retrying delivery's lane is put off until its retry: none of it could be attempted
   * before anyway, and so no claim reads past it meanwhile (a receiver down for hours would otherwise leave its whole
   * backlog due, to be read by every claim). Returns the statuses of the attempts recorded (not those whose claim
   * had lapsed meanwhile).
   */
  async record(worker: string, records: AttemptRecord[], gone: ReadonlySet<string>): Promise<DeliveryStatus[]> {
    const recorded = await acrossWorkspaces(this.orm.em).execute<{ status: DeliveryStatus }[]>(
      `with record as (
         select * from jsonb_to_recordset(?::jsonb) as record(id uuid, attempts_made int, lane text, event_seq bigint,
           status text, attempt jsonb, request jsonb, next_attempt_at timestamptz)
       ), recorded as (
         update webhook_deliveries delivery set
           status = record.status,
           attempts = delivery.attempts || jsonb_build_array(record.attempt),
           request = coalesce(record.request, delivery.request),
           next_attempt_at = record.next_attempt_at,
           claimed_by = null, claimed_until = null
         from record
         where delivery.id = record.id and delivery.claimed_by = ?
           and jsonb_array_length(delivery.attempts) = record.attempts_made
         returning delivery.status
       ), put_off as (
         update webhook_deliveries later set next_attempt_at = record.next_attempt_at
         from record
         where record.status = 'retrying' and later.lane = record.lane and later.status in ('pending', 'retrying')
           and later.event_seq > record.event_seq and later.next_attempt_at < record.next_attempt_at
       ), disabled as (
         update alert_destinations set enabled = false, disabled_reason = ?
         where id in (select jsonb_array_elements_text(?::jsonb)::uuid) and enabled
       )
       select status from recorded`,
      [
        JSON.stringify(records.map(toRecordRow)),
        worker,
        `The receiver answered 410 Gone at ${new Date().toISOString()}.`,
        JSON.stringify([...gone]),
      ],
      'all',
    );
    return recorded.map((row) => row.status);
  }

  /** Extends this worker's claims on the deliveries it still holds. */
  async renew(worker: string, ids: string[], leaseMs: number): Promise<void> {
    await acrossWorkspaces(this.orm.em).execute(
      `update webhook_deliveries set claimed_until = now() + make_interval(secs => ? / 1000.0)
       where id in (select jsonb_array_elements_text(?::jsonb)::uuid) and claimed_by = ?`,
      [leaseMs, JSON.stringify(ids), worker],
      'run',
    );
  }
}

function toRecordRow(record: AttemptRecord) {
  return {
    id: record.id,
    attempts_made: record.attemptsMade,
    lane: record.lane,
    event_seq: record.eventSeq,
    status: record.status,
    attempt: record.attempt,
    request: record.request,
    next_attempt_at: record.nextAttemptAt?.toISOString() ?? null,
  };
}
