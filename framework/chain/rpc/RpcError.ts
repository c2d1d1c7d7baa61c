/** Why an RPC call failed. Every failure of the chain RPC layer surfaces as one of these. */
export type RpcErrorKind =
  'not_found' | 'http' | 'timeout' | 'network' | 'invalid_json' | 'unexpected_response' | 'aborted' | 'bad_argument';

export interface RpcErrorDetails {
  path?: string;
  status?: number;
  /** Attempts made before giving up (1 = no retry). */
  attempts?: number;
  cause?: unknown;
}

/** Base class: `kind` tells what happened, `retryable` whether trying again can help. */
export class RpcError extends Error {
  override readonly name: string = 'RpcError';
  readonly path?: string;
  readonly status?: number;
  attempts: number;

  constructor(
    readonly kind: RpcErrorKind,
    readonly retryable: boolean,
    message: string,
    details: RpcErrorDetails = {},
  ) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
    this.path = details.path;
    this.status = details.status;
    this.attempts = details.attempts ?? 1;
  }
}

/** 404: the block, contract, key… does not exist (never retried). */
export class RpcNotFoundError extends RpcError {
  override readonly name = 'RpcNotFoundError';
  constructor(path: string) {
    super('not_found', false, `rpc ${path}: not found (404)`, { path, status: 404 });
  }
}

/** Any other non-2xx status; 5xx, 408 and 429 are retryable. `body` holds the start of the node's answer. */
export class RpcHttpError extends RpcError {
  override readonly name = 'RpcHttpError';
  constructor(
    path: string,
    status: number,
    readonly body: string,
  ) {
    const retryable = status >= 500 || status === 408 || status === 429;
    super('http', retryable, `rpc ${path}: HTTP ${status}${body ? `: ${body.slice(0, 300)}` : ''}`, { path, status });
  }
}

/** No complete answer within the per-attempt timeout. */
export class RpcTimeoutError extends RpcError {
  override readonly name = 'RpcTimeoutError';
  constructor(path: string, timeoutMs: number, cause?: unknown) {
    super('timeout', true, `rpc ${path}: no answer within ${timeoutMs} ms`, { path, cause });
  }
}

/** Connection refused/reset, socket closed mid-body, DNS failure… */
export class RpcNetworkError extends RpcError {
  override readonly name = 'RpcNetworkError';
  constructor(path: string, cause: unknown) {
    const code = (cause as { code?: unknown } | undefined)?.code;
    const reason = cause instanceof Error ? cause.message : String(cause);
    super('network', true, `rpc ${path}: network error${typeof code === 'string' ? ` ${code}` : ''}: ${reason}`, {
      path,
      cause,
    });
  }
}

/** A 2xx answer whose body is not valid JSON (typically truncated). */
export class RpcInvalidJsonError extends RpcError {
  override readonly name = 'RpcInvalidJsonError';
  constructor(path: string, cause?: unknown) {
    const reason = cause instanceof Error ? cause.message : 'invalid JSON';
    super('invalid_json', true, `rpc ${path}: invalid JSON in response: ${reason}`, { path, cause });
  }
}

/** Valid JSON of the wrong shape (not retried: the node answers the same way again). */
export class RpcUnexpectedResponseError extends RpcError {
  override readonly name = 'RpcUnexpectedResponseError';
  constructor(path: string, what: string) {
    super('unexpected_response', false, `rpc ${path}: unexpected response: ${what}`, { path });
  }
}

/** The caller's AbortSignal fired. */
export class RpcAbortedError extends RpcError {
  override readonly name = 'RpcAbortedError';
  constructor(path: string, cause?: unknown) {
    super('aborted', false, `rpc ${path}: aborted`, { path, cause });
  }
}

/** A bad argument (block id, address, script expression…) caught before any request is sent. */
export class RpcArgumentError extends RpcError {
  override readonly name = 'RpcArgumentError';
  constructor(message: string) {
    super('bad_argument', false, message);
  }
}
