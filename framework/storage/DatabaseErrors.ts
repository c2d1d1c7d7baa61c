import { ApiError, ErrorCode } from '../http/ApiError';

/**
 * Maps database failures met while answering a request onto API errors: a cancelled statement is a
 * 503 (the service's time budget ran out), a data exception (bad regular expression, value out of
 * range) is the caller's 400; anything else is the server's fault.
 */
export function databaseErrorToApi(e: unknown): ApiError {
  if (e instanceof ApiError) return e;
  const code = (e as { code?: unknown })?.code;
  const message = (e as Error)?.message ?? String(e);
  if (code === '57014') return ApiError.timeout('query timeout: the request took longer than the service allows; narrow the filters or lower the limit');
  if (typeof code === 'string' && code.startsWith('22')) return ApiError.invalid(`invalid filter value: ${message}`);
  return new ApiError(500, ErrorCode.DATABASE, 'database error');
}
