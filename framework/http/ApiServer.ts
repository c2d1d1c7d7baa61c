import * as http from 'node:http';
import type { Duplex } from 'node:stream';
import Koa from 'koa';
import { ApiError, ErrorCode } from '../errors/ApiError';
import { AdmissionControl, AdmissionLimits } from './AdmissionControl';
import { ChainState } from '../indexer/ChainState';
import { compression } from './Compression';
import { cors } from './Cors';
import { errorHandler } from './errorHandler';
import { requestContext } from './RequestContext';
import { RouteRegistry } from './RouteRegistry';
import { Logger } from '../util/Logger';

/** Request line and headers may take 2 MiB: `in` lists of thousands of addresses fit (the original takes 1 MB). */
export const MAX_HEADER_BYTES = 2 * 1024 * 1024;

/**
 * What Node's HTTP parser rejects before Koa sees it (headers over the limit, malformed request
 * lines) still answers in the JSON error format instead of an empty 431/400.
 */
function answerClientError(err: Error & { code?: string }, socket: Duplex): void {
  if (!socket.writable || err.code === 'ECONNRESET') {
    socket.destroy();
    return;
  }
  const tooLarge = err.code === 'HPE_HEADER_OVERFLOW';
  const status = tooLarge ? 431 : 400;
  const detail = tooLarge ? `request line and headers exceed ${MAX_HEADER_BYTES} bytes` : 'malformed HTTP request';
  const body = JSON.stringify(new ApiError(status, ErrorCode.BAD_URL_QUERY, detail).toBody(undefined, 'api'));
  socket.end(
    `HTTP/1.1 ${status} ${tooLarge ? 'Request Header Fields Too Large' : 'Bad Request'}\r\nContent-Type: application/json; charset=utf-8\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}

/** Routes that never wait for a slot: the endless live stream, and what monitors poll under overload. */
const UNQUEUED_PATHS = new Set(['/stream', '/explorer/status', '/metrics']);

/** The Koa application: shared middleware in front of the routes every plugin registered. */
export class ApiServer {
  readonly koa = new Koa();
  readonly admission: AdmissionControl;
  private server?: http.Server;

  constructor(
    readonly routes: RouteRegistry,
    chain: ChainState,
    log: Logger,
    version: string,
    limits: AdmissionLimits,
    corsOrigins: readonly string[],
  ) {
    this.admission = new AdmissionControl(limits, UNQUEUED_PATHS);
    this.koa.proxy = true;
    this.koa.silent = true;
    this.koa.use(requestContext(chain, version));
    this.koa.use(cors(corsOrigins));
    this.koa.use(compression(1024));
    this.koa.use(errorHandler(log));
    this.koa.use(this.admission.middleware());
    this.koa.use(routes.router.routes());
    this.koa.use(
      routes.router.allowedMethods({
        throw: true,
        methodNotAllowed: () => new ApiError(405, ErrorCode.NO_ROUTE, 'method not allowed'),
        // TRACE, PROPFIND, …: a method no route takes is the client's error, not ours.
        notImplemented: () => new ApiError(405, ErrorCode.NO_ROUTE, 'method not allowed'),
      }),
    );
  }

  listen(port: number, host: string): Promise<{ url: string; port: number }> {
    return new Promise((resolve, reject) => {
      // Idle keep-alive sockets outlive clients' own pooling timeouts (undici: 4 s): with Node's 5 s
      // default, a request sent on a socket the server is closing right then (the event loop having
      // been busy with embedded-database work) was reset (ECONNRESET) instead of answered.
      const server = http.createServer(
        { maxHeaderSize: MAX_HEADER_BYTES, keepAliveTimeout: 65_000 },
        this.koa.callback(),
      );
      server.on('clientError', answerClientError);
      server.once('error', reject);
      server.listen(port, host, () => {
        this.server = server;
        const addr = server.address() as { port: number };
        resolve({ url: `http://${host.includes(':') ? `[${host}]` : host}:${addr.port}`, port: addr.port });
      });
    });
  }

  async close(): Promise<void> {
    const server = this.server;
    if (!server) return;
    this.server = undefined;
    await new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  }
}
