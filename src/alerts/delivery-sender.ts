import { randomBytes } from 'node:crypto';
import { Inject, Injectable, OnApplicationShutdown } from '@nestjs/common';
import { createTransport, type Transporter } from 'nodemailer';
import { Webhook } from 'standardwebhooks';
import { Agent, request } from 'undici';
import { assertPublicUrl, checkedConnectLookup } from '../../libs/net-guard';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import type { EventPayload } from '../events/event-payloads';
import type { AlertDestination } from './entities/alert-destination.entity';
import type { DeliveryAttempt, DeliveryRequest } from './entities/webhook-delivery.entity';

const TIMEOUT_MS = 15_000;
const BODY_EXCERPT_BYTES = 4096;
const USER_AGENT = 'VigilWebhooks/1';

export interface SendOutcome {
  delivered: boolean;
  /** The receiver answered 410 Gone: it wants no more. */
  gone: boolean;
  attempt: DeliveryAttempt;
  request: DeliveryRequest;
}

/** A new webhook signing secret: `whsec_` and 32 random bytes, base64 (Standard Webhooks). */
export function newSigningSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}

/**
 * Sends one event to one destination, once, and says what happened. HTTP goes through a dispatcher whose connections
 * resolve names with the SSRF check at connect time (the socket goes to the checked address), never follows
 * redirects and gives up after 15 s. E-mail goes through SMTP_URL.
 */
@Injectable()
export class DeliverySender implements OnApplicationShutdown {
  private readonly dispatcher: Agent;
  private readonly mailer: Transporter | null;

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {
    this.dispatcher = new Agent({
      connect: { lookup: checkedConnectLookup({ allowPrivate: config.allowPrivateTargets }), timeout: TIMEOUT_MS },
      headersTimeout: TIMEOUT_MS,
      bodyTimeout: TIMEOUT_MS,
    });
    this.mailer = config.smtpUrl ? createTransport(config.smtpUrl) : null;
  }

  async onApplicationShutdown(): Promise<void> {
    this.mailer?.close();
    await this.dispatcher.close();
  }

  async send(destination: AlertDestination, event: EventPayload): Promise<SendOutcome> {
    switch (destination.type) {
      case 'webhook':
        return this.post(destination.config.url ?? '', this.signedHeaders(destination, event), JSON.stringify(event));
      case 'slack':
        return this.post(
          destination.config.webhook_url ?? '',
          { 'content-type': 'application/json' },
          JSON.stringify({ text: readable(event) }),
        );
      case 'email':
        return this.mail(destination.config.to ?? [], event);
      default: {
        const unknown: never = destination.type;
        throw new Error(`unknown destination type ${String(unknown)}`);
      }
    }
  }

  /** Standard Webhooks headers; while a rotated secret is still valid, both sign (space-separated). */
  private signedHeaders(destination: AlertDestination, event: EventPayload): Record<string, string> {
    const at = new Date();
    const secrets = [destination.secret];
    if (destination.previousSecret && (destination.previousSecretExpiresAt?.getTime() ?? 0) > at.getTime()) {
      secrets.push(destination.previousSecret);
    }
    const body = JSON.stringify(event);
    return {
      'content-type': 'application/json',
      'webhook-id': event.id,
      'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
      'webhook-signature': secrets
        .filter((secret): secret is string => secret !== null)
        .map((secret) => new Webhook(secret).sign(event.id, at, body))
        .join(' '),
    };
  }

  private async post(url: string, headers: Record<string, string>, body: string): Promise<SendOutcome> {
    const sent: DeliveryRequest = { headers: { ...headers, 'user-agent': USER_AGENT }, body };
    const attempt = startAttempt();
    try {
      // IP literals never reach the connect-time lookup: check the URL itself first.
      await assertPublicUrl(url, { allowPrivate: this.config.allowPrivateTargets });
      const response = await request(url, {
        method: 'POST',
        headers: sent.headers,
        body,
        dispatcher: this.dispatcher,
        signal: AbortSignal.timeout(TIMEOUT_MS),
      });
      const excerpt = await readExcerpt(response.body);
      const status = response.statusCode;
      const delivered = status >= 200 && status < 300;
      const error = delivered ? null : status >= 300 && status < 400 ? 'redirects are not followed' : null;
      return {
        delivered,
        gone: status === 410,
        attempt: attempt({ response_status: status, response_body: excerpt, error }),
        request: sent,
      };
    } catch (error) {
      return { delivered: false, gone: false, attempt: attempt({ error: describe(error) }), request: sent };
    }
  }

  private async mail(to: string[], event: EventPayload): Promise<SendOutcome> {
    const subject = `[Vigil] ${event.type}`;
    const sent: DeliveryRequest = { headers: { to: to.join(', '), subject }, body: readable(event) };
    const attempt = startAttempt();
    if (!this.mailer) {
      return { delivered: false, gone: false, attempt: attempt({ error: 'SMTP_URL is not set' }), request: sent };
    }
    try {
      const info = (await this.mailer.sendMail({ from: this.config.smtpFrom, to, subject, text: sent.body })) as {
        response?: string;
      };
      return {
        delivered: true,
        gone: false,
        attempt: attempt({ response_body: info.response ?? null }),
        request: sent,
      };
    } catch (error) {
      return { delivered: false, gone: false, attempt: attempt({ error: describe(error) }), request: sent };
    }
  }
}

/** Starts timing an attempt; the function it returns records how it ended, with the time it took. */
function startAttempt(): (fields: Partial<DeliveryAttempt>) => DeliveryAttempt {
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
async function readExcerpt(body: AsyncIterable<Buffer> & { destroy(): void }): Promise<string | null> {
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

function describe(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' ? `${code}: ${message}` : message;
}

/** One line a person reads in Slack or an e-mail. */
export function readable(event: EventPayload): string {
  const monitor = (about: { name: string; url: string }) => `${about.name} (${about.url})`;
  switch (event.type) {
    case 'monitor.down':
      return `:red_circle: ${monitor(event.data.monitor)} is down.`;
    case 'monitor.recovered':
      return `:large_green_circle: ${monitor(event.data.monitor)} has recovered.`;
    case 'change.detected':
    case 'value.changed':
      return `:pencil2: ${monitor(event.data.monitor)} changed: ${event.data.summary}`;
    case 'release_check.completed':
      return `:mag: Release check ${event.data.name} has its evidence; it waits for a review.`;
    case 'release_check.reviewed':
      return `:white_check_mark: Release check ${event.data.name} was reviewed.`;
    case 'a11y_scan.completed':
      return ':eyes: An accessibility scan of a monitor ended.';
    case 'crawl.completed':
      return `:spider_web: A crawl of ${event.data.url} ended.`;
    case 'ping':
      return 'Vigil test message: this destination works.';
    default: {
      const unknown: never = event;
      return String(unknown);
    }
  }
}
