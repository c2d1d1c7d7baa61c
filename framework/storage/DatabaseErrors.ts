import type { Knex } from 'knex';
import { ApiError, ErrorCode } from '../errors/ApiError';
import { cutText } from '../util/cutText';

/** How much of a failed statement's text its error keeps (docs/api.md, Limits). */
export const SQL_IN_ERRORS = 1024;

/**
 * Maps database failures met while answering a request onto API errors: a cancelled statement is a
 * 503 (the service's time budget ran out), and so is a lost connection (a 503 the caller may retry:
 * the pools discard the dead connection and open another); a write refused by a read-only session is
 * a 403; a data exception (bad regular expression, value out of range) is the caller's 400; anything
 * else is the server's fault.
 */
export function databaseErrorToApi(e: unknown): ApiError {
  if (e instanceof ApiError) return e;
  const code = (e as { code?: unknown })?.code;
  const message = (e as Error)?.message ?? String(e);
  if (code === '57014')
    return ApiError.timeout(
      'query timeout: the request took longer than the service allows; narrow the filters or lower the limit',
    );
  if (isConnectionLoss(e)) return new ApiError(503, ErrorCode.DATABASE, 'database connection lost: retry shortly');
  if (code === '25006') return readOnlyInstance();
  // A table of a plugin this database was never migrated for (a `serve` replica enabling more plugins).
  if (code === '42P01')
    return ApiError.notFound('this table is not available on this database (its plugin was never migrated here)');
  if (typeof code === 'string' && code.startsWith('22'))
    return ApiError.invalid(`invalid filter value: ${withoutSql(message)}`);
  // The failure itself stays with the answer's error, for the log (never in the answer).
  return Object.assign(new ApiError(500, ErrorCode.DATABASE, 'database error'), { cause: e });
}

/**
 * A failed query's error message: the start of its statement (`$n` placeholders, never the values:
 * knex's `compileSqlOnError: false`), how many parameters it had, then the database's words. Why:
 * with every value written into it, one failure of a long `in` list logged a 1.5 MB line.
 */
export function boundQueryErrors(knex: Knex): void {
  knex.on('query-error', (err: unknown, query: { sql?: string; bindings?: readonly unknown[] }) => {
    const sql = query.sql ?? '';
    if (!(err instanceof Error) || !err.message.startsWith(`${sql} - `)) return;
    err.message = `${cutText(sql, SQL_IN_ERRORS)} (${query.bindings?.length ?? 0} parameters)${err.message.slice(sql.length)}`;
  });
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

/** The 403 of a write on a read-only (`tzidx serve`) instance. */
export function readOnlyInstance(): ApiError {
  const detail = 'this instance is read-only (tzidx serve): send writes to the indexing instance';
  return new ApiError(403, ErrorCode.ACCESS_READONLY, detail);
}

/**
 * Postgres errors, by SQLSTATE (a 5-character code) or as the pg driver and the pools report a
 * connection that is gone or cannot be opened.
 */
export function isDatabaseError(e: unknown): boolean {
  const code = (e as { code?: unknown })?.code;
  return (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) || isConnectionLoss(e);
}

/** Class 08 (connection exception); 57P01–57P03 (terminated by an administrator, crash, server starting). */
const LOST_STATES = /^(08...|57P0[1-3])$/;
/** The pg driver's and knex's words when a connection dies under a query or none can be had. */
const LOST_MESSAGES =
  /Connection terminated|Client has encountered a connection error|Client was closed|Timeout acquiring a connection/;
const LOST_SOCKET_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENOTFOUND']);

/** The database connection went away (or none could be had): found anywhere in the `cause` chain. */
export function isConnectionLoss(e: unknown): boolean {
  for (let err = e; err instanceof Error; err = err.cause) {
    const code = (err as { code?: unknown }).code;
    if (typeof code === 'string' && (LOST_STATES.test(code) || LOST_SOCKET_CODES.has(code))) return true;
    if (LOST_MESSAGES.test(err.message)) return true;
  }
  return false;
}
