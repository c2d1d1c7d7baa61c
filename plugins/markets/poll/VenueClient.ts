import Bottleneck from 'bottleneck';
import { Dispatcher, request } from 'undici';
import { errorMessage } from '../../../framework';
import { VenueDataError } from '../Decimals';

export interface VenueClientOptions {
  /** Whole-request timeout (headers and body). */
  timeoutMs: number;
  /** Attempts per request, the first included. */
  attempts: number;
  /** First backoff delay; doubled per retry, with jitter. */
  backoffMs: number;
  /** Longest wait a Retry-After may impose before the request counts as failed. */
  maxRetryAfterMs: number;
  dispatcher?: Dispatcher;
}

export const DEFAULT_CLIENT_OPTIONS: VenueClientOptions = {
  timeoutMs: 10_000,
  attempts: 3,
  backoffMs: 500,
  maxRetryAfterMs: 60_000,
};

/** A failed venue request, with the reason its status shows. */
export class VenueRequestError extends Error {
  constructor(
    message: string,
    readonly rateLimited = false,
  ) {
    super(message);
  }
}

/**
 * GETs JSON from one venue with undici: its requests are spaced by the venue's rate limit
 * (bottleneck, one at a time), each bounded by a timeout, retried with exponential backoff on network
 * errors, timeouts, 5xx and 429 (waiting for Retry-After when the venue sends one). Other 4xx, bad
 * JSON and unparsable answers fail at once: retrying does not fix them.
 */
export class VenueClient {
  private readonly limiter: Bottleneck;

  constructor(
    private readonly baseUrl: string,
    minIntervalMs: number,
    private readonly options: VenueClientOptions,
    private readonly signal: AbortSignal,
  ) {
    this.limiter = new Bottleneck({ maxConcurrent: 1, minTime: minIntervalMs });
  }

  /** The parsed answer; `parse` maps it (its errors count as the venue's). */
  async get<T>(path: string, parse: (body: unknown) => T): Promise<T> {
    let lastError: VenueRequestError | undefined;
    for (let attempt = 1; attempt <= this.options.attempts; attempt++) {
      if (this.signal.aborted) throw new VenueRequestError('stopped');
      let body: unknown;
      try {
        body = await this.limiter.schedule(() => this.fetchJson(path));
      } catch (e) {
        if (e instanceof VenueRequestError) throw e;
        const err = e instanceof RetryableError ? e : new RetryableError(`network: ${errorMessage(e)}`);
        lastError = new VenueRequestError(err.message, err.rateLimited);
        if (attempt === this.options.attempts) break;
        const backoff = this.options.backoffMs * 2 ** (attempt - 1) * (0.75 + Math.random() / 2);
        const wait = Math.max(err.retryAfterMs ?? 0, backoff);
        if (wait > this.options.maxRetryAfterMs) break;
        await sleep(wait, this.signal);
        continue;
      }
      try {
        return parse(body);
      } catch (e) {
        throw new VenueRequestError(
          e instanceof VenueDataError ? `wrong schema: ${e.message}` : `unexpected answer: ${errorMessage(e)}`,
        );
      }
    }
    throw lastError ?? new VenueRequestError('no attempt made');
  }

  private async fetchJson(path: string): Promise<unknown> {
    const timeout = AbortSignal.timeout(this.options.timeoutMs);
    const signal = AbortSignal.any([timeout, this.signal]);
    let text: string;
    let status: number;
    let retryAfter: string | string[] | undefined;
    try {
      const res = await request(this.baseUrl + path, {
        method: 'GET',
        signal,
        dispatcher: this.options.dispatcher,
        headers: { accept: 'application/json', 'user-agent': 'tzidx-markets' },
      });
      status = res.statusCode;
      retryAfter = res.headers['retry-after'];
      text = await res.body.text();
    } catch (e) {
      if (timeout.aborted) throw new RetryableError(`timeout after ${this.options.timeoutMs} ms`);
      throw e;
    }
    if (status === 429) throw new RetryableError(`rate limited (HTTP 429)`, true, retryAfterMs(retryAfter));
    if (status >= 500)
      throw new RetryableError(`HTTP ${status}`, false, status === 503 ? retryAfterMs(retryAfter) : undefined);
    if (status >= 400) throw new VenueRequestError(`HTTP ${status}: ${text.slice(0, 200)}`);
    try {
      return JSON.parse(text);
    } catch {
      throw new VenueRequestError(`invalid JSON (${text.length} bytes): ${text.slice(0, 80)}`);
    }
  }

  async stop(): Promise<void> {
    await this.limiter.stop({ dropWaitingJobs: true }).catch(() => undefined);
  }
}

class RetryableError extends Error {
  constructor(
    message: string,
    readonly rateLimited = false,
    readonly retryAfterMs?: number,
  ) {
    super(message);
  }
}

/** Retry-After as seconds or an HTTP date. */
function retryAfterMs(v: string | string[] | undefined): number | undefined {
  const text = Array.isArray(v) ? v[0] : v;
  if (text === undefined) return undefined;
  if (/^\d+$/.test(text.trim())) return Number(text) * 1000;
  const at = Date.parse(text);
  return Number.isFinite(at) ? Math.max(0, at - Date.now()) : undefined;
}

export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done(): void {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });
}
