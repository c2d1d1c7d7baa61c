import { Client } from 'pg';
import type { Logger } from '../util/Logger';
import { StreamLog } from './StreamLog';

/** Waits between reconnection attempts: doubling from the first to the last, reset once listening. */
const RECONNECT_BACKOFF = { firstMs: 250, maxMs: 5_000 };

/**
 * On `tzidx serve` replicas over Postgres: LISTENs on the stream channel, which the indexer NOTIFYs in
 * each transaction that wrote stream events (delivered when it commits), and tells the hub. A lost
 * connection (the server restarted, the backend terminated) is reopened with backoff, and the hub is
 * told once listening again, for what was committed meanwhile; its slow poll covers the gap. A
 * dropped client keeps an error listener: pg may still emit on it, and an `error` event nobody
 * listens to ends the process.
 */
export class NotifyListener {
  /** Notifications received (for tests and diagnostics). */
  received = 0;
  /** Connections opened and listening (the first and every reconnection). */
  connections = 0;
  private client?: Client;
  private stopped = false;
  private retry?: NodeJS.Timeout;
  private failures = 0;

  constructor(
    private readonly url: string,
    private readonly onNotify: () => void,
    private readonly log: Logger,
  ) {}

  /** The first connection: a failure here is the caller's (the instance does not start). */
  async start(): Promise<void> {
    await this.connect(true);
  }

  private async connect(first = false): Promise<void> {
    const client = new Client({ connectionString: this.url });
    client.on('error', (e) => this.lost(client, e));
    client.on('end', () => this.lost(client));
    client.on('notification', () => {
      this.received++;
      this.onNotify();
    });
    this.client = client;
    try {
      await client.connect();
      await client.query(`listen ${StreamLog.channel}`);
    } catch (e) {
      if (!first) return this.lost(client, e as Error);
      this.client = undefined;
      clearTimeout(this.retry);
      await client.end().catch(() => undefined);
      throw e;
    }
    if (this.stopped) {
      await client.end().catch(() => undefined);
      return;
    }
    if (this.failures > 0) this.log.info('stream LISTEN connection back');
    this.failures = 0;
    this.connections++;
    // Anything committed while we were not listening.
    this.onNotify();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.retry);
    await this.client?.end().catch(() => undefined);
  }

  /** The current connection failed or ended: once per connection, a new one after the backoff. */
  private lost(client: Client, e?: Error): void {
    if (this.stopped || client !== this.client) return;
    this.client = undefined;
    client.removeAllListeners('notification');
    client.end().catch(() => undefined);
    const delay = Math.min(RECONNECT_BACKOFF.maxMs, RECONNECT_BACKOFF.firstMs * 2 ** this.failures);
    this.failures++;
    this.log.warn({ err: e?.message, retryInMs: delay }, 'stream LISTEN connection lost; reconnecting');
    this.retry = setTimeout(() => {
      this.retry = undefined;
      void this.connect();
    }, delay);
    this.retry.unref();
  }
}
