import { silentChainLogger, type ChainLogger } from '../support/ChainLogger';
import { abortableSleep, type SleepFn } from '../support/abortableSleep';
import { ExponentialBackoff, type BackoffOptions } from './ExponentialBackoff';
import {
  RpcAbortedError,
  RpcError,
  RpcHttpError,
  RpcInvalidJsonError,
  RpcNetworkError,
  RpcNotFoundError,
  RpcTimeoutError,
} from './RpcError';
import type { RpcResponse, RpcTransport } from './RpcTransport';

export interface RpcRequesterOptions {
  /** Per-attempt time limit (ms), headers and body included. Default 30 000. */
  timeoutMs?: number;
  /** Retries after the first attempt. Default 5. */
  maxRetries?: number;
  backoff?: BackoffOptions | ExponentialBackoff;
  /** Gets one `warn` line per retry. Silent by default. */
  logger?: ChainLogger;
  /** Injectable for tests; must reject when the signal aborts. */
  sleep?: SleepFn;
}

const UNDICI_TIMEOUT_CODES = new Set(['UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT', 'UND_ERR_CONNECT_TIMEOUT']);

class AttemptTimeout extends Error {}

/**
 * GETs JSON through any `RpcTransport` with a per-attempt timeout and capped exponential backoff.
 * Retries 5xx/408/429, timeouts, network errors and broken JSON; never retries 404 or other 4xx.
 * Every failure is an `RpcError` (its `attempts` says how many tries were made).
 */
export class RpcRequester {
  readonly timeoutMs: number;
  readonly maxRetries: number;
  readonly backoff: ExponentialBackoff;
  private readonly logger: ChainLogger;
  private readonly sleep: SleepFn;

  constructor(
    private readonly transport: RpcTransport,
    options: RpcRequesterOptions = {},
  ) {
    this.timeoutMs = options.timeoutMs ?? 30_000;
    this.maxRetries = Math.max(0, options.maxRetries ?? 5);
    this.backoff =
      options.backoff instanceof ExponentialBackoff ? options.backoff : new ExponentialBackoff(options.backoff);
    this.logger = options.logger ?? silentChainLogger;
    this.sleep = options.sleep ?? abortableSleep;
  }

  /** Parsed JSON of a 2xx answer; throws `RpcNotFoundError` on 404. */
  async getJson(path: string, signal?: AbortSignal): Promise<unknown> {
    for (let attempt = 0; ; attempt++) {
      if (signal?.aborted) throw this.withAttempts(new RpcAbortedError(path, signal.reason), attempt);
      const failure = await this.tryOnce(path, signal);
      if (!(failure instanceof RpcError)) return failure.value;
      if (!failure.retryable || attempt >= this.maxRetries) throw this.withAttempts(failure, attempt + 1);
      const delayMs = this.backoff.delay(attempt);
      this.logger.warn(
        {
          path,
          attempt: attempt + 1,
          maxAttempts: this.maxRetries + 1,
          delayMs,
          errorKind: failure.kind,
          status: failure.status,
          error: failure.message,
        },
        `tezos rpc GET ${path} failed (${failure.kind}), retry ${attempt + 1}/${this.maxRetries} in ${delayMs} ms`,
      );
      try {
        await this.sleep(delayMs, signal);
      } catch (err) {
        throw this.withAttempts(new RpcAbortedError(path, err), attempt + 1);
      }
    }
  }

  /** Like `getJson`, but a 404 answers `undefined`. */
  async getOptionalJson(path: string, signal?: AbortSignal): Promise<unknown> {
    try {
      return await this.getJson(path, signal);
    } catch (err) {
      if (err instanceof RpcNotFoundError) return undefined;
      throw err;
    }
  }

  /** One attempt: the parsed value, or the typed failure. */
  private async tryOnce(path: string, signal?: AbortSignal): Promise<{ value: unknown } | RpcError> {
    let response: RpcResponse;
    try {
      response = await this.withTimeout(path, signal);
    } catch (err) {
      return this.classify(path, err, signal);
    }
    if (response.status === 404) return new RpcNotFoundError(path);
    if (response.status < 200 || response.status > 299) return new RpcHttpError(path, response.status, response.body);
    try {
      return { value: JSON.parse(response.body) as unknown };
    } catch (err) {
      return new RpcInvalidJsonError(path, err);
    }
  }

  /** Runs one transport call under a timer; also covers transports that ignore the signal. */
  private async withTimeout(path: string, signal?: AbortSignal): Promise<RpcResponse> {
    const timer = new AbortController();
    const combined = signal ? AbortSignal.any([signal, timer.signal]) : timer.signal;
    let handle: NodeJS.Timeout | undefined;
    const expired = new Promise<never>((_, reject) => {
      handle = setTimeout(() => {
        const reason = new AttemptTimeout(`timeout after ${this.timeoutMs} ms`);
        timer.abort(reason);
        reject(reason);
      }, this.timeoutMs);
    });
    let onAbort: (() => void) | undefined;
    const aborted = new Promise<never>((_, reject) => {
      onAbort = () => reject(signal?.reason);
      if (signal?.aborted) onAbort();
      else signal?.addEventListener('abort', onAbort, { once: true });
    });
    try {
      return await Promise.race([this.transport.get(path, combined), expired, aborted]);
    } finally {
      clearTimeout(handle);
      if (onAbort) signal?.removeEventListener('abort', onAbort);
    }
  }

  private classify(path: string, err: unknown, signal?: AbortSignal): RpcError {
    if (err instanceof RpcError) return err;
    if (signal?.aborted) return new RpcAbortedError(path, err);
    const code = (err as { code?: unknown } | null)?.code;
    if (err instanceof AttemptTimeout || (typeof code === 'string' && UNDICI_TIMEOUT_CODES.has(code))) {
      return new RpcTimeoutError(path, this.timeoutMs, err);
    }
    return new RpcNetworkError(path, err);
  }

  private withAttempts(error: RpcError, attempts: number): RpcError {
    error.attempts = attempts;
    return error;
  }
}
