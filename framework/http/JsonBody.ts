import type { Context } from 'koa';
import { ApiError, ErrorCode } from '../errors/ApiError';

/**
 * Deepest nesting a body may have: deep enough for any Micheline or metadata document, shallow enough
 * that nothing recursive over it (JSON.stringify, schema validation) runs out of stack.
 */
export const MAX_BODY_DEPTH = 256;
const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * A write request's JSON body. It must say `Content-Type: application/json` (else 415); a
 * Content-Length over `maxBytes` is refused before reading and a longer body is cut off at it (413);
 * invalid UTF-8, invalid JSON, nesting past MAX_BODY_DEPTH or a NUL character (which no database
 * text can hold) are 400s that name the problem.
 */
export async function jsonBody(ctx: Context, maxBytes: number): Promise<unknown> {
  if (!ctx.is('application/json')) {
    const type = ctx.get('Content-Type');
    const detail = `the body must be sent as application/json${type ? `, not ${type}` : ''}`;
    throw new ApiError(415, ErrorCode.CONTENTTYPE_UNSUPPORTED, detail);
  }
  const tooBig = (): ApiError =>
    new ApiError(413, ErrorCode.DEMARSHAL_FAILED, `request body exceeds ${maxBytes} bytes`);
  const declared = Number(ctx.get('Content-Length') || 0);
  if (declared > maxBytes) throw tooBig();
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of ctx.req) {
    size += (chunk as Buffer).length;
    if (size > maxBytes) {
      // The rest is not read: the connection closes after the answer.
      ctx.set('Connection', 'close');
      throw tooBig();
    }
    chunks.push(chunk as Buffer);
  }
  const text = decode(Buffer.concat(chunks));
  if (text.trim() === '') throw bad('request body is empty: a JSON document is expected');
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    throw bad(`request body is not valid JSON: ${(e as Error).message}`);
  }
  check(value, '', 1);
  return value;
}

function decode(bytes: Buffer): string {
  try {
    return utf8.decode(bytes);
  } catch {
    throw bad('request body is not valid UTF-8');
  }
}

/** Depth and NUL characters, in strings and keys (named by their object); `at` is the JSON pointer of `value`. */
function check(value: unknown, at: string, depth: number): void {
  if (typeof value === 'string') {
    if (value.includes('\0')) throw nul(at);
    return;
  }
  if (typeof value !== 'object' || value === null) return;
  if (depth > MAX_BODY_DEPTH) {
    throw bad(`request body nests deeper than ${MAX_BODY_DEPTH} levels, at ${pointer(at)}`);
  }
  for (const [k, v] of Object.entries(value)) {
    const path = `${at}/${k.replace(/~/g, '~0').replace(/\//g, '~1')}`;
    if (k.includes('\0')) throw nul(at);
    check(v, path, depth + 1);
  }
}

/** A JSON pointer for a message: the first 100 characters of a long one. */
function pointer(at: string): string {
  return at === '' ? '/' : at.length > 100 ? `${at.slice(0, 100)}…` : at;
}

function nul(at: string): ApiError {
  return bad(`request body: a NUL character (\\u0000) cannot be stored, at ${pointer(at)}`);
}

function bad(detail: string): ApiError {
  return new ApiError(400, ErrorCode.DEMARSHAL_FAILED, detail);
}
