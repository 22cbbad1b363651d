import { Agent } from 'undici';
import { checkedConnectLookup } from '../../libs/net-guard';
import type { AppConfig } from '../config/app-config';
import type { DeliveryAttempt, DeliveryRequest } from './entities/webhook-delivery.entity';

/** How one attempt went. */
export interface SendOutcome {
  delivered: boolean;
  /** The receiver answered 410 Gone: it wants no more. */
  gone: boolean;
  attempt: DeliveryAttempt;
  request: DeliveryRequest;
}

/** A send (or each request of one) gives up after this long. */
export const SEND_TIMEOUT_MS = 15_000;
const BODY_EXCERPT_BYTES = 4096;

/**
 * An HTTP dispatcher for deliveries: its connections resolve names with the SSRF check at connect time (the socket
 * goes to the checked address) and give up after SEND_TIMEOUT_MS.
 */
export function checkedDispatcher(config: AppConfig): Agent {
  return new Agent({
    connect: { lookup: checkedConnectLookup({ allowPrivate: config.allowPrivateTargets }), timeout: SEND_TIMEOUT_MS },
    headersTimeout: SEND_TIMEOUT_MS,
    bodyTimeout: SEND_TIMEOUT_MS,
  });
}

/** Starts timing an attempt; the function it returns records how it ended, with the time it took. */
export function startAttempt(): (fields: Partial<DeliveryAttempt>) => DeliveryAttempt {
  const started = performance.now();
  return (fields) => ({
    at: new Date().toISOString(),
    response_status: null,
    duration_ms: Math.round(performance.now() - started),
    error: null,
    response_body: null,
    ...fields,
  });
}

/** The first 4 KiB of a body, then the rest is dropped unread. */
export async function readExcerpt(body: AsyncIterable<Buffer> & { destroy(): void }): Promise<string | null> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    chunks.push(chunk);
    size += chunk.length;
    if (size >= BODY_EXCERPT_BYTES) {
      body.destroy();
      break;
    }
  }
  const text = Buffer.concat(chunks).subarray(0, BODY_EXCERPT_BYTES).toString('utf8');
  return text === '' ? null : text;
}

export function describe(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' ? `${code}: ${message}` : message;
}
