import * as http from 'node:http';
import Koa from 'koa';
import compress from 'koa-compress';
import { ApiError, ErrorCode } from './ApiError';
import { ChainState } from './ChainState';
import { errorHandler } from './errorHandler';
import { requestContext } from './RequestContext';
import { RouteRegistry } from './RouteRegistry';
import { Logger } from '../util/Logger';

/** The Koa application: shared middleware in front of the routes every plugin registered. */
export class ApiServer {
  readonly koa = new Koa();
  private server?: http.Server;

  constructor(routes: RouteRegistry, chain: ChainState, log: Logger, version: string) {
    this.koa.proxy = true;
    this.koa.silent = true;
    this.koa.use(requestContext(chain, version));
    // gzip/deflate/br when the client accepts it; tiny answers are not worth it.
    this.koa.use(compress({ threshold: 1024 }));
    this.koa.use(errorHandler(log));
    this.koa.use(routes.router.routes());
    this.koa.use(
      routes.router.allowedMethods({
        throw: true,
        methodNotAllowed: () => new ApiError(405, ErrorCode.NO_ROUTE, 'method not allowed'),
        notImplemented: () => new ApiError(501, ErrorCode.NO_ROUTE, 'not implemented'),
      }),
    );
  }

  listen(port: number, host: string): Promise<{ url: string; port: number }> {
    return new Promise((resolve, reject) => {
      const server = http.createServer(this.koa.callback());
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
