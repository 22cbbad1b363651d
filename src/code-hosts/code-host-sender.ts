import { Inject, Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import type { Agent } from 'undici';
import { checkedDispatcher, type SendOutcome, startAttempt } from '../alerts/delivery-attempt';
import type { AlertDestination } from '../alerts/entities/alert-destination.entity';
import type { DeliveryRequest } from '../alerts/entities/webhook-delivery.entity';
import { CredentialBox } from '../common/secrets/credential-box';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import type { EventPayload } from '../events/event-payloads';
import { type CodeHostClient, type ConnectionCheck, GitHubClient, GitLabClient } from './code-host-clients';
import { gateReportOf, RELEASE_CHECK_EVENT_TYPES, type ReleaseCheckEvent } from './gate-report';
import { type HostCall, HostCallFailed, HostHttp, loggedHeaders } from './host-http';

/** The stored credential does not open with the service's key: SECRETS_KEY changed since it was saved. */
class CredentialUnreadable extends Error {
  constructor() {
    super(
      'not sent: the stored credential cannot be decrypted (was SECRETS_KEY changed?); save the private key or token again',
    );
  }
}

/** GitLab.com, for a connection that names no self-managed instance. */
export const GITLAB_COM = 'https://gitlab.com';

/**
 * Reports release checks to code hosts, as one delivery of the outbox's events: the commit status for the check's
 * context, then (for a pull or merge request) its comment, added once and edited after. A delivery succeeds when both
 * calls did; a retry makes both again, which changes nothing that already happened (the status is set to the same
 * state, the comment found by its marker and edited). Each connection's client is kept while the connection is
 * unchanged, so a GitHub installation token is reused until shortly before it expires.
 */
@Injectable()
export class CodeHostSender implements OnApplicationShutdown {
  private readonly logger = new Logger(CodeHostSender.name);
  private readonly dispatcher: Agent;
  private readonly http: HostHttp;
  private readonly clients = new Map<string, { version: number; client: CodeHostClient }>();

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly credentials: CredentialBox,
  ) {
    this.dispatcher = checkedDispatcher(config);
    this.http = new HostHttp(this.dispatcher, config.allowPrivateTargets);
  }

  async onApplicationShutdown(): Promise<void> {
    await this.dispatcher.close();
  }

  async send(connection: AlertDestination, event: EventPayload): Promise<SendOutcome> {
    const attempt = startAttempt();
    let statusCall: HostCall | null = null;
    const request = (): DeliveryRequest =>
      statusCall
        ? { headers: loggedHeaders(statusCall.headers), body: JSON.stringify(statusCall.body) }
        : { headers: {}, body: '' };
    if (!isReleaseCheckEvent(event) || !event.data.source) {
      const error = `a code host is told about release checks with a source only; this is ${event.type}`;
      return { delivered: false, gone: false, attempt: attempt({ error }), request: request() };
    }
    const { source } = event.data;
    const report = gateReportOf(event);
    try {
      const client = this.clientFor(connection);
      const status = await client.setStatus(source, report);
      statusCall = status.call;
      const last = source.pull_request
        ? await client.upsertComment(source, source.pull_request, report)
        : status.answer;
      return {
        delivered: true,
        gone: false,
        attempt: attempt({ response_status: last.status, response_body: last.excerpt }),
        request: request(),
      };
    } catch (error) {
      if (error instanceof HostCallFailed) {
        return {
          delivered: false,
          gone: false,
          attempt: attempt({ response_status: error.status, response_body: error.excerpt, error: error.message }),
          request: request(),
        };
      }
      // Anything else is recorded as this attempt's failure too, so the delivery is retried on its schedule and the
      // check's later events are not held behind an attempt that never ends.
      this.logger.warn({ err: error }, `delivery to code-host connection ${connection.id} failed`);
      return { delivered: false, gone: false, attempt: attempt({ error: describeFailure(error) }), request: request() };
    }
  }

  /** Whether the connection's credential works now. */
  async check(connection: AlertDestination): Promise<ConnectionCheck> {
    try {
      return await this.clientFor(connection).check();
    } catch (error) {
      if (!(error instanceof CredentialUnreadable)) throw error;
      return { ok: false, response_status: null, detail: error.message.replace(/^not sent: /, '') };
    }
  }

  private clientFor(connection: AlertDestination): CodeHostClient {
    const version = connection.updatedAt.getTime();
    const kept = this.clients.get(connection.id);
    if (kept?.version === version) return kept.client;
    let credential: string;
    try {
      credential = this.credentials.open(connection.credential ?? '', connection.id);
    } catch {
      throw new CredentialUnreadable();
    }
    const client =
      connection.type === 'github'
        ? new GitHubClient(this.http, this.config.githubApiUrl, this.dispatcher, {
            appId: connection.config.app_id ?? 0,
            installationId: connection.config.installation_id ?? 0,
            privateKey: credential,
          })
        : new GitLabClient(this.http, connection.config.base_url ?? GITLAB_COM, credential);
    this.clients.set(connection.id, { version, client });
    return client;
  }
}

/** What the log says of a failure that is not the host's answer; a credential that cannot be opened says how to fix it. */
function describeFailure(error: unknown): string {
  if (error instanceof CredentialUnreadable) return error.message;
  return `not sent: ${error instanceof Error ? error.message : String(error)}`;
}

function isReleaseCheckEvent(event: EventPayload): event is ReleaseCheckEvent {
  return (RELEASE_CHECK_EVENT_TYPES as readonly string[]).includes(event.type);
}
