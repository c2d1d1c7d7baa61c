import { Client } from 'pg';
import type { Logger } from '../util/Logger';
import { StreamLog } from './StreamLog';

/**
 * On `tzidx serve` replicas over Postgres: LISTENs on the stream channel, which the indexer NOTIFYs in
 * each transaction that wrote stream events (delivered when it commits), and tells the hub. A lost
 * connection is reopened; the hub's slow poll covers the gap.
 */
export class NotifyListener {
  /** Notifications received (for tests and diagnostics). */
  received = 0;
  private client?: Client;
  private stopped = false;
  private retry?: NodeJS.Timeout;

  constructor(
    private readonly url: string,
    private readonly onNotify: () => void,
    private readonly log: Logger,
  ) {}

  async start(): Promise<void> {
    const client = new Client({ connectionString: this.url });
    client.on('notification', () => {
      this.received++;
      this.onNotify();
    });
    client.on('error', (e) => this.reconnect(e));
    client.on('end', () => this.reconnect());
    await client.connect();
    await client.query(`listen ${StreamLog.channel}`);
    this.client = client;
    // Anything committed while we were not listening.
    this.onNotify();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.retry);
    await this.client?.end().catch(() => undefined);
  }

  private reconnect(e?: Error): void {
    if (this.stopped || this.retry) return;
    this.log.warn({ err: e?.message }, 'stream LISTEN connection lost; reconnecting');
    this.client?.removeAllListeners();
    this.client = undefined;
    this.retry = setTimeout(() => {
      this.retry = undefined;
      this.start().catch((err) => this.reconnect(err as Error));
    }, 1000);
  }
}
