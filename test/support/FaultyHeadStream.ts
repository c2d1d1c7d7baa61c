import type { IncomingMessage, ServerResponse } from 'node:http';
import { FaultSchedule, answerHttp500, noFaults } from './FaultSchedule';

/**
 * Faults of the long-lived `/monitor/heads` stream, where a node's failures look different from a
 * plain answer's. When the connection opens (`opening`): a 500, no headers at all (the client's
 * headers timeout must fire), a TCP reset, or half of the first head and a clean end. On each later
 * head (`heads`): a reset, half a head and a clean end, or silence with the connection left open
 * (the client's idle timeout must fire). Each fault ends the stream, so the source has to reconnect.
 */
export class FaultyHeadStream {
  /** Faults injected so far, per kind. */
  readonly faults = noFaults();
  private readonly opening: FaultSchedule;
  private readonly heads: FaultSchedule;

  constructor(seed: number, rate: number) {
    this.opening = new FaultSchedule(seed, rate);
    this.heads = new FaultSchedule(seed + 1, rate, ['reset', 'truncated', 'timeout']);
  }

  /** Answers a stream request: `forward` asks the node and hands its response over. */
  serve(res: ServerResponse, forward: (answer: (up: IncomingMessage) => void) => void): void {
    const fault = this.opening.next();
    if (fault === 'http500' || fault === 'timeout' || fault === 'reset') {
      this.faults[fault]++;
      if (fault === 'http500') answerHttp500(res);
      if (fault === 'reset') res.socket?.resetAndDestroy();
      return; // a timeout sends nothing
    }
    forward((up) => this.relay(up, res, fault === 'truncated'));
  }

  /** Passes the node's stream on line by line (one head per line) until a fault breaks it. */
  private relay(up: IncomingMessage, res: ServerResponse, cutFirst: boolean): void {
    res.writeHead(up.statusCode ?? 502, up.headers);
    let buffered = '';
    let first = true;
    up.setEncoding('utf8');
    up.on('data', (text: string) => {
      buffered += text;
      for (let nl = buffered.indexOf('\n'); nl >= 0; nl = buffered.indexOf('\n')) {
        const line = buffered.slice(0, nl + 1);
        buffered = buffered.slice(nl + 1);
        const fault = first ? (cutFirst ? 'truncated' : undefined) : this.heads.next();
        first = false;
        if (fault === undefined) {
          res.write(line);
          continue;
        }
        this.faults[fault]++;
        up.destroy();
        if (fault === 'reset') res.socket?.resetAndDestroy();
        if (fault === 'truncated') res.end(line.slice(0, line.length >> 1));
        return; // a timeout leaves the client's connection open and silent
      }
    });
    up.on('end', () => res.end());
  }
}
