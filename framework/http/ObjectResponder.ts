import { createHash } from 'node:crypto';
import { Context } from 'koa';
import { injectable } from 'tsyringe';
import { ApiError } from './ApiError';
import { ChainState } from './ChainState';

/** What an explorer route answers: the object, and where it sits relative to the head for caching. */
export interface ObjectAnswer {
  body: unknown;
  /**
   * The block height the object is fixed at. Objects at least `finalDepth` blocks below the head no
   * longer change and are cached for a day; newer ones until the next block is expected.
   * Omitted: the object changes with every block (accounts, tip, head).
   */
  height?: number;
}

/** Blocks below the head after which an object is treated as final (reorgs do not reach that deep). */
export const FINAL_DEPTH = 64;
const FINAL_MAX_AGE = 86_400;

/**
 * Sends explorer objects: JSON with bigints written as numbers when exact (strings otherwise), a
 * content ETag honoured by If-None-Match (304), and a Cache-Control lifetime derived from the head.
 */
@injectable()
export class ObjectResponder {
  constructor(private readonly chain: ChainState) {}

  respond(ctx: Context, answer: ObjectAnswer): void {
    const text = JSON.stringify(answer.body, (_k, v) => (typeof v === 'bigint' ? (Number.isSafeInteger(Number(v)) ? Number(v) : v.toString()) : v));
    const etag = `W/"${createHash('sha1').update(text).digest('base64url')}"`;
    ctx.set('ETag', etag);
    ctx.set('Cache-Control', `public, max-age=${this.maxAge(answer.height)}`);
    if (ifNoneMatch(ctx.get('If-None-Match'), etag)) {
      ctx.status = 304;
      return;
    }
    ctx.type = 'application/json; charset=utf-8';
    ctx.body = text;
  }

  private maxAge(height: number | undefined): number {
    const head = this.chain.height;
    if (height !== undefined && head !== undefined && head - height >= FINAL_DEPTH) return FINAL_MAX_AGE;
    return this.chain.secondsToNextBlock();
  }
}

function ifNoneMatch(header: string, etag: string): boolean {
  if (!header) return false;
  if (header.trim() === '*') return true;
  return header.split(',').some((t) => t.trim().replace(/^W\//, '') === etag.replace(/^W\//, ''));
}

/**
 * Explorer paths take no format suffix except `.json`: `.csv` (or anything else) on the last
 * segment is a 400/1001, as explorer objects have no CSV form.
 */
export function stripJsonSuffix(params: Record<string, string>): void {
  for (const [k, v] of Object.entries(params)) {
    const m = /^(.*)\.([A-Za-z0-9]+)$/.exec(v);
    if (!m) continue;
    if (m[2].toLowerCase() !== 'json') throw ApiError.unsupportedFormat(m[2]);
    params[k] = m[1];
  }
}
