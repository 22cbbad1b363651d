import { Inject, Injectable, Logger } from '@nestjs/common';
import { Client } from 'pg';
import { APP_CONFIG, type AppConfig } from '../config/app-config';

/** The channel the `events_notify` trigger notifies at each commit that recorded events. */
const CHANNEL = 'vigil_events';
/** A lost connection (PostgreSQL restarting) is made again after this long, and again until it holds. */
const RECONNECT_MS = 1_000;

/**
 * Tells a worker process that events were committed, from a connection of its own that listens on `vigil_events`.
 * Only a hint to relay sooner: a notification lost with the connection is caught up by `onEvents` being called again
 * once a new connection listens, and by the relay's own slow poll.
 */
@Injectable()
export class EventNotifications {
  private readonly logger = new Logger(EventNotifications.name);
  private client: Client | null = null;
  private retry?: NodeJS.Timeout;
  private stopped = false;
  private onEvents: () => void = () => undefined;

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  /** Calls `onEvents` at each notification, and whenever a (new) connection starts listening. */
  listen(onEvents: () => void): void {
    this.onEvents = onEvents;
    void this.connect();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.retry);
    const client = this.client;
    this.client = null;
    await client?.end().catch(() => undefined);
  }

  private async connect(): Promise<void> {
    if (this.stopped) return;
    const client = new Client({ connectionString: this.config.databaseUrl, connectionTimeoutMillis: 5_000 });
    // Without a listener, a connection's error (PostgreSQL restarting) would end the process.
    client.on('error', (error) => this.lost(client, error));
    client.on('end', () => this.lost(client));
    client.on('notification', () => this.onEvents());
    try {
      await client.connect();
      await client.query(`listen ${CHANNEL}`);
    } catch (error) {
      this.lost(client, error);
      return;
    }
    if (this.stopped) {
      await client.end().catch(() => undefined);
      return;
    }
    this.client = client;
    this.onEvents();
  }

  /** The connection went away (or never came): a new one after a while, unless stopping. */
  private lost(client: Client, error?: unknown): void {
    client.removeAllListeners('end');
    client.end().catch(() => undefined);
    // A second report of the same loss, or of a connection already replaced, changes nothing.
    if (this.stopped || this.retry || (this.client !== null && this.client !== client)) return;
    this.client = null;
    if (error) this.logger.warn({ err: error }, 'lost the connection that listens for events; connecting again');
    this.retry = setTimeout(() => {
      this.retry = undefined;
      void this.connect();
    }, RECONNECT_MS);
    this.retry.unref();
  }
}
