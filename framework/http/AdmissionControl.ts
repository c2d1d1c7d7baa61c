import { Context, Next } from 'koa';
import { ApiError, ErrorCode } from '../errors/ApiError';

/** How many requests run at once, how many may wait for a turn, and for how long. */
export interface AdmissionLimits {
  maxInflight: number;
  queue: number;
  queueTimeoutMs: number;
}

/** Seconds a refused client is told to wait: overload here is a burst that drains within a second or so. */
export const RETRY_AFTER_SECONDS = 1;

/**
 * Admission control: at most `maxInflight` requests run their handler at once (the database pool, not
 * the socket count, is what a burst exhausts), the next ones wait in a FIFO line of at most `queue`,
 * and whoever cannot get in — line full, or waited `queueTimeoutMs` — is answered at once instead of
 * piling onto the pool until clients time out. The answer is a 503, not a 429: the limit is the
 * server's capacity, shared by all clients, not a quota a client exceeded, and 503 + Retry-After is
 * what RFC 9110 prescribes for a temporary overload. A client that disconnects while waiting leaves
 * the line. The slot is held until the handler returns: a streamed answer's rest is paced by its
 * reader, and a reader that stalls must not keep a slot. `exempt` paths (the live stream, status,
 * metrics) bypass the line so they answer under overload.
 */
export class AdmissionControl {
  private running = 0;
  /** The waiting requests, first come first served: calling one hands it a slot. */
  private readonly line: Array<() => void> = [];

  constructor(
    private readonly limits: AdmissionLimits,
    private readonly exempt: ReadonlySet<string>,
  ) {}

  /** Requests running and waiting now (tests and operators look at these). */
  get inFlight(): number {
    return this.running;
  }
  get queued(): number {
    return this.line.length;
  }

  middleware() {
    return async (ctx: Context, next: Next): Promise<void> => {
      if (this.exempt.has(ctx.path.replace(/(.)\/$/, '$1'))) return next();
      await this.enter(ctx);
      try {
        await next();
      } finally {
        this.leave();
      }
    };
  }

  /** Resolves once the request holds a slot; throws the 503 (or, for a gone client, a 499). */
  private enter(ctx: Context): Promise<void> {
    if (this.running < this.limits.maxInflight) {
      this.running++;
      return Promise.resolve();
    }
    if (this.line.length >= this.limits.queue)
      return Promise.reject(overloaded(ctx, `${this.limits.queue} requests already waiting`));
    return new Promise((resolve, reject) => {
      const out = (e: ApiError): void => {
        this.line.splice(this.line.indexOf(admit), 1);
        done();
        reject(e);
      };
      const timer = setTimeout(
        () => out(overloaded(ctx, `no slot within ${this.limits.queueTimeoutMs} ms`)),
        this.limits.queueTimeoutMs,
      );
      const gone = (): void => out(new ApiError(499, ErrorCode.SERVER, 'client closed the connection while waiting'));
      const done = (): void => {
        clearTimeout(timer);
        ctx.res.off('close', gone);
      };
      const admit = (): void => {
        done();
        resolve();
      };
      ctx.res.once('close', gone);
      this.line.push(admit);
    });
  }

  /** A finished request hands its slot straight to the first in line, so none can overtake it. */
  private leave(): void {
    const first = this.line.shift();
    if (first) first();
    else this.running--;
  }
}

/** The 503 in the service's error format, with when to come back. */
function overloaded(ctx: Context, why: string): ApiError {
  ctx.set('Retry-After', String(RETRY_AFTER_SECONDS));
  return new ApiError(503, ErrorCode.SERVER, `server busy: ${why}, retry after ${RETRY_AFTER_SECONDS} s`);
}
