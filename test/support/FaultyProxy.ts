import { Agent, createServer, request, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { FaultSchedule, answerHttp500, noFaults, type FaultKind } from './FaultSchedule';
import { FaultyHeadStream } from './FaultyHeadStream';

export interface FaultyProxyOptions {
  /** Base URL of the node behind the proxy. */
  target: string;
  seed: number;
  /** Share of plain requests that get a fault, e.g. 0.1. */
  rate: number;
  /** Share of head-stream openings, and of heads it relays, that get a fault. */
  streamRate: number;
}

export interface FaultyProxy {
  url: string;
  /** Plain requests seen so far (head-stream connections aside). */
  readonly requests: number;
  /** Faults injected so far, per kind: in plain answers, and in the head stream. */
  readonly faults: Record<FaultKind, number>;
  readonly streamFaults: Record<FaultKind, number>;
  close(): Promise<void>;
}

/**
 * An HTTP proxy in front of a node that breaks a seeded share of its answers the ways real networks
 * do, so a live test can check the RPC client and the block source get through them:
 * - `http500`: a node-style JSON error with status 500;
 * - `timeout`: the request is read and never answered (the client's own timeout must fire);
 * - `reset`: a TCP reset right after the request, no byte of answer;
 * - `truncated`: status 200 and half the body, alternately as a cleanly ended chunked answer (broken
 *   JSON) and under the full Content-Length with the connection closed early.
 * `/monitor/…` streams get their own faults (`FaultyHeadStream`).
 */
export async function startFaultyProxy(options: FaultyProxyOptions): Promise<FaultyProxy> {
  const target = new URL(options.target);
  const agent = new Agent({ keepAlive: true });
  const faults = noFaults();
  const schedule = new FaultSchedule(options.seed, options.rate);
  const heads = new FaultyHeadStream(options.seed + 1, options.streamRate);
  let requests = 0;

  /** Sends the request on to the node; `answer` gets the node's response. */
  const forward = (req: IncomingMessage, res: ServerResponse, answer: (up: IncomingMessage) => void): void => {
    const up = request(
      { host: target.hostname, port: target.port, path: req.url, method: req.method, headers: req.headers, agent },
      answer,
    );
    up.on('error', () => res.destroy());
    // A client that gave up (its timeout) or a proxy closing: stop the node's answer, or its stream, too.
    res.on('close', () => {
      if (!res.writableFinished) up.destroy();
    });
    up.end();
  };

  const server = createServer((req, res) => {
    if ((req.url ?? '').startsWith('/monitor/')) return heads.serve(res, (answer) => forward(req, res, answer));
    requests++;
    const fault = schedule.next();
    if (fault === undefined) return forward(req, res, (up) => pass(up, res));
    if (fault === 'truncated') return forward(req, res, (up) => truncate(up, res, faults));
    faults[fault]++;
    if (fault === 'http500') answerHttp500(res);
    if (fault === 'reset') req.socket.resetAndDestroy();
    // A timeout sends nothing: the socket stays open until the client gives up or the proxy closes.
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    get requests() {
      return requests;
    },
    faults,
    streamFaults: heads.faults,
    close: async () => {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      agent.destroy();
      await closed;
    },
  };
}

/** The node's answer as it is, streamed. */
function pass(up: IncomingMessage, res: ServerResponse): void {
  res.writeHead(up.statusCode ?? 502, up.headers);
  up.pipe(res);
}

/**
 * Half of a 2xx answer, counted in `faults`: ended cleanly (chunked) or under the full Content-Length,
 * then the connection closed, alternately. Other answers (a 404 says all with its status) pass whole.
 */
function truncate(up: IncomingMessage, res: ServerResponse, faults: Record<FaultKind, number>): void {
  const parts: Buffer[] = [];
  up.on('data', (b: Buffer) => parts.push(b));
  up.on('end', () => {
    const body = Buffer.concat(parts);
    const status = up.statusCode ?? 502;
    if (status < 200 || status > 299 || body.length < 2) {
      res.writeHead(status, up.headers).end(body);
      return;
    }
    const half = body.subarray(0, body.length >> 1);
    const { 'content-length': _length, ...headers } = up.headers;
    if (faults.truncated++ % 2 === 0) {
      res.writeHead(status, headers).end(half);
    } else {
      res.writeHead(status, { ...headers, 'content-length': String(body.length) });
      res.write(half, () => res.destroy());
    }
  });
}
