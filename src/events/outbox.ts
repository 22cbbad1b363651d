import type { EntityManager } from '@mikro-orm/postgresql';
import { Workspace } from '../workspaces/entities/workspace.entity';
import { type EventType, OutboxEvent } from './event.entity';
import type { EventDataOf } from './event-payloads';

/** An event to record: its `data` is what openapi.yaml's webhook of its type promises receivers. */
export type NewEvent = {
  [T in EventType]: {
    workspaceId: string;
    type: T;
    data: EventDataOf<T>;
    /** Destinations a rule named (besides the workspace's subscribers of this type). */
    destinationIds?: string[];
    /** Events with the same key are delivered to each destination in the order they were recorded. */
    orderingKey?: string;
  };
}[EventType];

/**
 * Records an event in the caller's unit of work: call it inside the transaction that makes the change, so the event
 * exists exactly when the change does. The relay delivers it after commit.
 */
export function recordEvent(em: EntityManager, event: NewEvent): OutboxEvent {
  return em.create(OutboxEvent, {
    workspace: em.getReference(Workspace, event.workspaceId),
    type: event.type,
    data: event.data,
    destinationIds: event.destinationIds ?? [],
    orderingKey: event.orderingKey ?? null,
  });
}
