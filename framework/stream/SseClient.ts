import type { ServerResponse } from 'node:http';
import type { StreamFilter } from './StreamFilter';
import type { StreamEvent } from './StreamLog';

/** One event in the Server-Sent Events wire format. */
export function sseFrame(id: number | undefined, type: string, data: unknown): string {
  return `${id === undefined ? '' : `id: ${id}\n`}event: ${type}\ndata: ${JSON.stringify(data)}\n\n`;
}

/** How much a client may leave unread, and how long a dropped client has to read its final event. */
export interface SseClientLimits {
  /** Bytes a client's socket may hold unread before it is dropped. */
  maxBufferedBytes: number;
  /** How long a dropped client may take to read its final event before its connection is cut. */
  dropGraceMs: number;
}

/**
 * One /stream connection. Its buffer is the socket's own write buffer, bounded: a client that reads
 * slower than events come fills it, and once it holds more than `maxBufferedBytes` the client gets a
 * final `dropped` event and is disconnected, so a stalled reader never grows the server's memory:
 * the connection closes once that event is read (not kept alive for another request), or is cut
 * `dropGraceMs` after the drop if the client does not read it (the socket's buffer is freed then).
 * `lastId` advances over filtered-out events too, so a resume starts right after what was seen.
 */
export class SseClient {
  /** False while the client catches up from the database (live events wait for it). */
  live = false;
  closed = false;
  /** Bytes the socket held at most, for /metrics-style accounting and tests. */
  peakBuffered = 0;

  constructor(
    private readonly res: ServerResponse,
    private readonly filter: StreamFilter,
    public lastId: number,
    private readonly limits: SseClientLimits,
    private readonly onClose: (c: SseClient) => void,
  ) {
    res.on('close', () => this.close());
  }

  /** A live event from the hub; ignored while catching up and for ids already sent. */
  offer(e: StreamEvent): void {
    if (this.live) this.deliver(e);
  }

  deliver(e: StreamEvent): void {
    if (this.closed || e.id <= this.lastId) return;
    if (!this.filter.matches(e) || this.write(sseFrame(e.id, e.type, e.data))) this.lastId = e.id;
  }

  /** A message outside the event sequence (reset notices). */
  notice(type: string, data: unknown): void {
    this.write(sseFrame(undefined, type, data));
  }

  heartbeat(): void {
    this.write(`: heartbeat ${new Date().toISOString()}\n\n`);
  }

  /** False when the client is gone or was just dropped. */
  private write(frame: string): boolean {
    if (this.closed) return false;
    const buffered = this.res.writableLength;
    this.peakBuffered = Math.max(this.peakBuffered, buffered);
    if (buffered > this.limits.maxBufferedBytes) {
      this.drop();
      return false;
    }
    this.res.write(frame);
    return true;
  }

  /** The final event (past the bound, once), then the end: resume with Last-Event-ID after reading faster. */
  private drop(): void {
    const socket = this.res.socket;
    this.res.write(
      sseFrame(undefined, 'dropped', { reason: 'client too slow: send buffer full', last_event_id: this.lastId }),
    );
    this.res.end(() => socket?.end());
    if (socket) {
      const cut = setTimeout(() => socket.destroy(), this.limits.dropGraceMs).unref();
      socket.once('close', () => clearTimeout(cut));
    }
    this.close();
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    if (!this.res.writableEnded) this.res.end();
    this.onClose(this);
  }
}
