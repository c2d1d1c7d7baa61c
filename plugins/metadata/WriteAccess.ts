import { createHash, timingSafeEqual } from 'node:crypto';
import type { Context } from 'koa';
import { ApiError, ErrorCode } from '../../framework';
import type { MetadataSettings } from './MetadataSettings';

/**
 * Who may write metadata. A public instance (writes off) answers every write 403; a private one wants
 * one of its API keys as `Authorization: Bearer <key>` or `X-API-Key: <key>` (401 when missing or
 * wrong). Keys are compared by SHA-256 digest in constant time and are never logged or echoed.
 */
export class WriteAccess {
  constructor(private readonly settings: Pick<MetadataSettings, 'writes' | 'keyDigests'>) {}

  check(ctx: Context): void {
    if (!this.settings.writes)
      throw new ApiError(403, ErrorCode.ACCESS_READONLY, 'metadata is read-only on this instance');
    const key = presentedKey(ctx);
    if (key === undefined)
      throw new ApiError(
        401,
        ErrorCode.ACCESS_APIKEY_MISSING,
        'API key missing: send Authorization: Bearer <key> or X-API-Key',
      );
    const digest = createHash('sha256').update(key, 'utf8').digest();
    // Every digest is compared, so the time taken does not tell which (if any) matched.
    let ok = false;
    for (const d of this.settings.keyDigests) ok = timingSafeEqual(d, digest) || ok;
    if (!ok) throw new ApiError(401, ErrorCode.ACCESS_APIKEY_INVALID, 'invalid API key');
  }
}

function presentedKey(ctx: Context): string | undefined {
  const auth = ctx.get('Authorization');
  const bearer = /^Bearer\s+(\S+)\s*$/i.exec(auth);
  if (bearer) return bearer[1];
  const header = ctx.get('X-API-Key').trim();
  return header === '' ? undefined : header;
}
