import { createHash } from 'node:crypto';
import { Context } from 'koa';
import { inject, injectable } from 'tsyringe';
import { ACCOUNT_METADATA, AccountMetadataSource, fillMetadataSlots } from '../extensions/AccountMetadata';
import { BLOCK_RIGHTS, BlockRightsSource, fillRightsSlots } from '../extensions/BlockRights';
import { ApiError } from '../errors/ApiError';
import { ChainState } from '../indexer/ChainState';

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

const FINAL_MAX_AGE = 86_400;

/** Marks a bigint during JSON.stringify; the marked string is then replaced by its bare digits. */
const BIGINT_MARK = '\u0000bigint:';
const MARKED = /"\\u0000bigint:(-?\d+)"/g;

/**
 * JSON with every bigint as a plain JSON number, exact to the last digit (ids and key ids above
 * 2^53): Go clients decode int64/uint64 fields from numbers, never from strings.
 */
export function objectJson(body: unknown): string {
  try {
    // Most objects hold no bigint: stringified without a replacer called for every value.
    return JSON.stringify(body);
  } catch (e) {
    if (!(e instanceof TypeError)) throw e;
  }
  return JSON.stringify(body, (_k, v) => (typeof v === 'bigint' ? BIGINT_MARK + v.toString() : v)).replace(
    MARKED,
    '$1',
  );
}

/**
 * Sends explorer objects: JSON with bigints written as exact numbers, a content ETag honoured by If-None-Match (304),
 * and a Cache-Control lifetime derived from the head.
 */
@injectable()
export class ObjectResponder {
  constructor(
    private readonly chain: ChainState,
    @inject(ACCOUNT_METADATA) private readonly metadata: AccountMetadataSource,
    @inject(BLOCK_RIGHTS) private readonly rights: BlockRightsSource,
  ) {}

  async respond(ctx: Context, answer: ObjectAnswer): Promise<void> {
    await fillMetadataSlots(answer.body, this.metadata);
    await fillRightsSlots(answer.body, this.rights);
    const text = objectJson(answer.body);
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
    if (height !== undefined && head !== undefined && head - height >= this.chain.finalDepth) return FINAL_MAX_AGE;
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
