import * as http from 'node:http';

export interface SseMessage {
  id?: number;
  event: string;
  data: Record<string, unknown>;
}

/**
 * A minimal Server-Sent Events client written for the tests (independent of the server's framing
 * code): collects every message of one connection, counts heartbeat comments.
 */
export class SseReader {
  readonly messages: SseMessage[] = [];
  heartbeats = 0;
  status = 0;
  ended = false;
  private buffer = '';
  private req?: http.ClientRequest;
  private waiters: Array<() => void> = [];

  private constructor(private readonly keep: (m: SseMessage) => SseMessage) {}

  /** `keep` may shrink what is kept of each message (big payloads). */
  static open(
    url: string,
    headers: Record<string, string> = {},
    keep: (m: SseMessage) => SseMessage = (m) => m,
  ): Promise<SseReader> {
    const r = new SseReader(keep);
    return new Promise((resolve, reject) => {
      r.req = http.get(url, { headers: { Accept: 'text/event-stream', ...headers }, agent: false }, (res) => {
        r.status = res.statusCode ?? 0;
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => r.feed(chunk));
        res.on('end', () => {
          r.ended = true;
          r.wake();
        });
        res.on('error', () => undefined);
        resolve(r);
      });
      r.req.on('error', reject);
    });
  }

  events(type?: string): SseMessage[] {
    return type ? this.messages.filter((m) => m.event === type) : this.messages;
  }

  close(): void {
    this.req?.destroy();
  }

  /** Waits until `check` holds (re-checked on every message), at most `ms`. */
  async until(check: () => boolean, ms: number, what: string): Promise<void> {
    const deadline = Date.now() + ms;
    while (!check()) {
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
      await new Promise<void>((resolve) => {
        const t = setTimeout(resolve, 200);
        this.waiters.push(() => {
          clearTimeout(t);
          resolve();
        });
      });
    }
  }

  private feed(chunk: string): void {
    this.buffer += chunk;
    let end: number;
    while ((end = this.buffer.indexOf('\n\n')) >= 0) {
      const frame = this.buffer.slice(0, end);
      this.buffer = this.buffer.slice(end + 2);
      const fields: Record<string, string> = {};
      let comment = false;
      for (const line of frame.split('\n')) {
        if (line.startsWith(':')) comment = true;
        const m = /^(\w+): ?(.*)$/.exec(line);
        if (m) fields[m[1]] = m[1] === 'data' && fields.data !== undefined ? `${fields.data}\n${m[2]}` : m[2];
      }
      if (fields.data !== undefined) {
        this.messages.push(
          this.keep({
            id: fields.id === undefined ? undefined : Number(fields.id),
            event: fields.event ?? 'message',
            data: JSON.parse(fields.data),
          }),
        );
      } else if (comment && frame.includes('heartbeat')) {
        this.heartbeats++;
      }
    }
    this.wake();
  }

  private wake(): void {
    const w = this.waiters;
    this.waiters = [];
    w.forEach((f) => f());
  }
}
