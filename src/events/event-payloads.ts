import type { webhooks } from '../../libs/api-client/schema';
import type { EventType } from './event.entity';

/*
 * What receivers get for each event type, generated from openapi.yaml's `webhooks` (npm run api-client): the code
 * that records an event is type-checked against the contract its receivers generate their types from, so a renamed
 * or missing field fails the build instead of a receiver. Every recorded event is also validated against the contract
 * at the end of each test file (test/setup/file-database.ts).
 */

/** The body a destination receives for an event of type `T`: the Standard Webhooks envelope and the event's data. */
export type EventPayloadOf<T extends EventType> = webhooks[T]['post']['requestBody']['content']['application/json'];

/** The `data` of an event of type `T`. */
export type EventDataOf<T extends EventType> = EventPayloadOf<T>['data'];

/** Any event's body, by `type`. */
export type EventPayload = { [T in EventType]: EventPayloadOf<T> }[EventType];
