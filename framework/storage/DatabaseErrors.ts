import { ApiError, ErrorCode } from '../errors/ApiError';

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
  // A table of a plugin this database was never migrated for (a `serve` replica enabling more plugins).
  if (code === '42P01') return ApiError.notFound('this table is not available on this database (its plugin was never migrated here)');
  if (typeof code === 'string' && code.startsWith('22')) return ApiError.invalid(`invalid filter value: ${withoutSql(message)}`);
  return new ApiError(500, ErrorCode.DATABASE, 'database error');
}

/**
 * The database's own words without the statement: knex prefixes the SQL (`select … - message`), and
 * SQL never leaves the service. Falls back to a generic text when the message cannot be separated.
 */
function withoutSql(message: string): string {
  const cut = message.lastIndexOf(' - ');
  const text = cut >= 0 ? message.slice(cut + 3) : message;
  return /\b(select|from|where)\b.*"/i.test(text) ? 'the database rejected the value' : text;
}
