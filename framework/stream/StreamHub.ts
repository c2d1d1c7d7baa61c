import type { Knex } from 'knex';
import type { Logger } from '../util/Logger';
import type { SseClient, SseClientLimits } from './SseClient';
import type { StreamFilterLimits } from './StreamFilter';
import { StreamEvent, StreamLog } from './StreamLog';

export interface StreamLimits extends SseClientLimits, StreamFilterLimits {
  heartbeatMs: number;
  /** How often the log is read without being told (replicas whose NOTIFY was missed; a safety net). */
  pollMs: number;
  /** Clients connected at once (config `stream_max_clients`); the next one gets a 503. */
  maxClients: number;
}

/**
 * 1,000 clients: twice the 500 the stream test serves at once; a stalled one holds at most
 * `maxBufferedBytes` for `dropGraceMs`. The filter caps keep what a client's filter itself holds
 * small (1,000 addresses are about 37 kB; 100 clients of 1.85 MB lists took 500 MB).
 */
export const DEFAULT_STREAM_LIMITS: StreamLimits = {
  maxBufferedBytes: 1 << 20,
  dropGraceMs: 10_000,
  heartbeatMs: 15_000,
  pollMs: 5_000,
  maxClients: 1_000,
  maxFilterEntries: 1_000,
  maxFilterBytes: 64 * 1024,
};

const PAGE = 1000;

/**
 * The per-process fan-out of /stream: reads new events from the stream log when told (after a local
 * commit, or a NOTIFY on replicas) and offers them to every client in id order. A client resuming
 * with Last-Event-ID first catches up from the log, then joins the live sequence without gap or
 * repeat.
 */
export class StreamHub {
  private readonly clients = new Set<SseClient>();
  private lastSeen = 0;
  private reading?: Promise<void>;
  private readAgain = false;
  private stopped = false;
  private timers: NodeJS.Timeout[] = [];

  constructor(
    private readonly db: Knex,
    private readonly log: Logger,
    readonly limits: StreamLimits = { ...DEFAULT_STREAM_LIMITS },
  ) {}

  async start(): Promise<void> {
    this.lastSeen = await StreamLog.newest(this.db).catch(() => 0);
    this.timers = [
      setInterval(() => this.notify(), this.limits.pollMs),
      setInterval(() => this.clients.forEach((c) => c.heartbeat()), this.limits.heartbeatMs),
    ];
    this.timers.forEach((t) => t.unref());
  }

  /** Stops polling and closes the clients; resolves once a read in progress is over (the pool closes next). */
  async stop(): Promise<void> {
    this.timers.forEach(clearInterval);
    this.stopped = true;
    for (const c of [...this.clients]) c.close();
    while (this.reading) await this.reading;
  }

  get clientCount(): number {
    return this.clients.size;
  }

  /** The most any client's socket held unread (bounded by `maxBufferedBytes` plus one event). */
  get peakBufferedBytes(): number {
    return Math.max(this.peakOfClosed, ...[...this.clients].map((c) => c.peakBuffered));
  }
  private peakOfClosed = 0;

  /** Something was committed: read it (reads never overlap; a request during one reads again after). */
  notify(): void {
    if (this.stopped) return;
    if (this.reading) {
      this.readAgain = true;
      return;
    }
    this.reading = this.readNew()
      .catch((e) => this.log.warn({ err: (e as Error).message }, 'cannot read the stream log'))
      .finally(() => {
        this.reading = undefined;
        if (this.readAgain) {
          this.readAgain = false;
          this.notify();
        }
      });
  }

  /** Resolves once everything committed up to now has been offered to the clients. */
  async settled(): Promise<void> {
    // The commit's notification may still be on its way: compare with what the log holds.
    const newest = await StreamLog.newest(this.db).catch(() => this.lastSeen);
    while (this.reading) await this.reading;
    while (this.lastSeen < newest) {
      const seen = this.lastSeen;
      this.notify();
      while (this.reading) await this.reading;
      if (this.lastSeen === seen) return; // The read failed (logged): do not spin.
    }
  }

  private async readNew(): Promise<void> {
    // Nobody listens (a backfill, most replicas): where the log ends is all a client joining later
    // needs, not the events (a page of JSON per commit). A client that joins during this read starts
    // after events committed before it joined; one that resumes catches up from the log itself.
    if (this.clients.size === 0) {
      this.lastSeen = Math.max(this.lastSeen, await StreamLog.newest(this.db));
      return;
    }
    for (;;) {
      const events = await StreamLog.after(this.db, this.lastSeen, PAGE);
      this.fanOut(events);
      if (events.length < PAGE) return;
    }
  }

  /** Offers events (in id order) to every live client. */
  fanOut(events: readonly StreamEvent[]): void {
    for (const e of events) {
      if (e.id <= this.lastSeen) continue;
      this.lastSeen = e.id;
      for (const c of this.clients) c.offer(e);
    }
  }

  /**
   * A new client: from now on, or after `resumeAfter`. A resume point older than the kept window is
   * announced with a `reset` notice and the client continues from the oldest kept event. A catch-up
   * that fails (the database connection lost) ends the client's stream: it resumes with Last-Event-ID.
   */
  async add(client: SseClient, resumeAfter?: number): Promise<void> {
    this.clients.add(client);
    if (resumeAfter === undefined) {
      client.lastId = this.lastSeen;
      client.live = true;
      return;
    }
    client.lastId = resumeAfter;
    try {
      await this.catchUp(client, resumeAfter);
    } catch (e) {
      this.log.warn({ err: (e as Error).message }, 'cannot catch a resuming stream client up; its stream ends');
      client.close();
    }
  }

  private async catchUp(client: SseClient, resumeAfter: number): Promise<void> {
    const oldest = await StreamLog.oldest(this.db);
    if (oldest > 0 && resumeAfter < oldest - 1) {
      client.notice('reset', {
        reason: 'the resume point is older than the kept window',
        last_event_id: resumeAfter,
        oldest_id: oldest,
      });
      client.lastId = oldest - 1;
    }
    for (;;) {
      if (client.closed) return;
      const events = await StreamLog.after(this.db, client.lastId, PAGE);
      for (const e of events) client.deliver(e);
      if (events.length < PAGE && client.lastId >= this.lastSeen) break;
      if (events.length === 0) client.lastId = Math.max(client.lastId, this.lastSeen);
    }
    client.live = true;
  }

  remove(client: SseClient): void {
    this.peakOfClosed = Math.max(this.peakOfClosed, client.peakBuffered);
    this.clients.delete(client);
  }
}
