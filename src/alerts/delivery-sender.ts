import { randomBytes } from 'node:crypto';
import { Inject, Injectable, OnApplicationShutdown } from '@nestjs/common';
import { createTransport, type SendMailOptions, type Transporter } from 'nodemailer';
import { Webhook } from 'standardwebhooks';
import { type Agent, request } from 'undici';
import { assertPublicUrl } from '../../libs/net-guard';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import type { EventPayload } from '../events/event-payloads';
import { CodeHostSender } from '../code-hosts/code-host-sender';
import type { AlertDestination } from './entities/alert-destination.entity';
import {
  checkedDispatcher,
  describe,
  readExcerpt,
  SEND_TIMEOUT_MS,
  type SendOutcome,
  startAttempt,
} from './delivery-attempt';

export type { SendOutcome } from './delivery-attempt';
import type { DeliveryRequest } from './entities/webhook-delivery.entity';

const USER_AGENT = 'VigilWebhooks/1';

/** A notification to a status page's subscriber, as the notifier renders it. */
export type SubscriberMessage =
  | { kind: 'email'; to: string; subject: string; text: string; unsubscribeUrl: string }
  | { kind: 'webhook'; url: string; body: unknown };

/** A new webhook signing secret: `whsec_` and 32 random bytes, base64 (Standard Webhooks). */
export function newSigningSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}

/**
 * Sends one event to one destination, once, and says what happened. HTTP goes through a dispatcher whose connections
 * resolve names with the SSRF check at connect time (the socket goes to the checked address), never follows
 * redirects and gives up after 15 s. E-mail goes through SMTP_URL; code hosts through CodeHostSender.
 */
@Injectable()
export class DeliverySender implements OnApplicationShutdown {
  private readonly dispatcher: Agent;
  private readonly mailer: Transporter | null;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly codeHosts: CodeHostSender,
  ) {
    this.dispatcher = checkedDispatcher(config);
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
        return this.mail(destination.config.to ?? [], `[Vigil] ${event.type}`, readable(event));
      case 'github':
      case 'gitlab':
        return this.codeHosts.send(destination, event);
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
        signal: AbortSignal.timeout(SEND_TIMEOUT_MS),
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

  /** A status page's notification to one subscriber: an e-mail, or an unsigned JSON POST (a subscriber has no secret). */
  notifySubscriber(message: SubscriberMessage): Promise<SendOutcome> {
    if (message.kind === 'webhook') {
      return this.post(message.url, { 'content-type': 'application/json' }, JSON.stringify(message.body));
    }
    // RFC 8058: one click in the mail client unsubscribes, by a POST it sends to this address (which must be absolute:
    // without PUBLIC_URL the links are paths, and the mail client is given none).
    const oneClick = /^https?:\/\//.test(message.unsubscribeUrl)
      ? {
          list: { unsubscribe: message.unsubscribeUrl },
          headers: { 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' },
        }
      : {};
    return this.mail([message.to], message.subject, message.text, oneClick);
  }

  private async mail(
    to: string[],
    subject: string,
    text: string,
    extra: Pick<SendMailOptions, 'list' | 'headers'> = {},
  ): Promise<SendOutcome> {
    const sent: DeliveryRequest = { headers: { to: to.join(', '), subject }, body: text };
    const attempt = startAttempt();
    if (!this.mailer) {
      return { delivered: false, gone: false, attempt: attempt({ error: 'SMTP_URL is not set' }), request: sent };
    }
    try {
      const info = (await this.mailer.sendMail({ from: this.config.smtpFrom, to, subject, text, ...extra })) as {
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

/** One line a person reads in Slack or an e-mail. */
export function readable(event: EventPayload): string {
  const monitor = (about: { name: string; url: string | null }) =>
    about.url === null ? about.name : `${about.name} (${about.url})`;
  switch (event.type) {
    case 'monitor.down':
      return `:red_circle: ${monitor(event.data.monitor)} is down.`;
    case 'monitor.recovered':
      return `:large_green_circle: ${monitor(event.data.monitor)} has recovered.`;
    case 'certificate.expiring': {
      const { certificate } = event.data;
      const when = certificate.days_left < 0 ? 'has expired' : `expires in ${certificate.days_left} days`;
      return `:lock: The certificate of ${monitor(event.data.monitor)} ${when} (${certificate.expires_at}).`;
    }
    case 'certificate.renewed':
      return `:lock: ${monitor(event.data.monitor)} serves a renewed certificate, valid until ${event.data.certificate.expires_at}.`;
    case 'change.detected':
    case 'value.changed':
      return `:pencil2: ${monitor(event.data.monitor)} changed: ${event.data.summary}`;
    case 'release_check.started':
      return `:hourglass: Release check ${event.data.name} is collecting evidence (revision ${event.data.revision}).`;
    case 'release_check.completed':
      return `:mag: Release check ${event.data.name} has its evidence; it waits for a review.`;
    case 'release_check.reviewed':
      return `:white_check_mark: Release check ${event.data.name} was reviewed.`;
    case 'a11y_scan.completed':
      return ':eyes: An accessibility scan of a monitor ended.';
    case 'crawl.completed':
      return `:spider_web: A crawl of ${event.data.url} ended.`;
    case 'maintenance.started':
      return `:construction: Maintenance "${event.data.maintenance_window.name}" began; it ends at ${event.data.ends_at}.`;
    case 'maintenance.ended':
      return `:white_check_mark: Maintenance "${event.data.maintenance_window.name}" ended.`;
    case 'ping':
      return 'Vigil test message: this destination works.';
    default: {
      const unknown: never = event;
      return String(unknown);
    }
  }
}
