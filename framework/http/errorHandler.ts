import { Context, Next } from 'koa';
import { ApiError, ErrorCode } from '../errors/ApiError';
import { databaseErrorToApi, isDatabaseError } from '../storage/DatabaseErrors';
import { RETRY_AFTER_SECONDS } from './AdmissionControl';
import { Logger } from '../util/Logger';

/**
 * Every failure leaves as the service's JSON error body: ApiErrors as they are, Koa's own HTTP errors
 * (bad URL encoding, body too large) with their status, anything unexpected as a 500 that is logged.
 */
export function errorHandler(log: Logger) {
  return async (ctx: Context, next: Next): Promise<void> => {
    try {
      await next();
      if (ctx.status === 404 && ctx.body === undefined) {
        throw new ApiError(404, ErrorCode.NO_ROUTE, `Unrecognized request URL (${ctx.method}: ${ctx.path}).`);
      }
    } catch (e) {
      const err = toApiError(e);
      if (err.status >= 500) log.error({ err: e, url: ctx.url, requestId: ctx.state.requestId }, 'request failed');
      ctx.status = err.status;
      // Overload, a timeout, a lost database connection: all pass; say when to come back.
      if (err.status === 503 && !ctx.response.get('Retry-After')) ctx.set('Retry-After', String(RETRY_AFTER_SECONDS));
      ctx.type = 'application/json; charset=utf-8';
      ctx.body = JSON.stringify(err.toBody(ctx.state.requestId, ctx.state.scope ?? 'api'), null, 2);
    }
  };
}

function toApiError(e: unknown): ApiError {
  if (e instanceof ApiError) return e;
  if (e instanceof URIError) return ApiError.badQuery('malformed URL encoding');
  // Postgres errors (SQLSTATE codes) met outside the collection engine, e.g. by explorer objects.
  if (isDatabaseError(e)) return databaseErrorToApi(e);
  const status = (e as { status?: number; expose?: boolean }).status;
  if (typeof status === 'number' && status >= 400 && status < 500) {
    if (status === 405) return new ApiError(405, ErrorCode.NO_ROUTE, (e as Error).message);
    return new ApiError(status, ErrorCode.BAD_URL_QUERY, (e as Error).message);
  }
  return new ApiError(500, ErrorCode.SERVER, 'internal server error');
}
