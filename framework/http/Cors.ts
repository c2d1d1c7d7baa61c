import { Context, Next } from 'koa';

/**
 * Cross-origin reads, as public chain APIs allow them: a browser page on another origin may GET and
 * HEAD anything (and its preflight for those methods is answered here), never write. `origins` is
 * the config's `cors_origins`: `*` for any origin, else the exact origins allowed; empty turns CORS off.
 */
const READS = new Set(['GET', 'HEAD']);
/** Headers a page may read besides the CORS-safelisted ones. */
const EXPOSED = [
  'X-Request-Id', 'X-Runtime', 'X-Chain-Height', 'X-Network-Id', 'X-Protocol-Hash', 'X-Series-Source',
  'X-Streaming-Count', 'X-Streaming-Cursor', 'X-Streaming-Error', 'ETag', 'Retry-After',
].join(', ');
const PREFLIGHT_MAX_AGE = '86400';

export function cors(origins: readonly string[]) {
  const any = origins.includes('*');
  const listed = new Set(origins);
  const allowed = (origin: string): string | undefined => (any ? '*' : listed.has(origin) ? origin : undefined);
  return async (ctx: Context, next: Next): Promise<void> => {
    const origin = ctx.get('Origin');
    if (!any && listed.size > 0) ctx.vary('Origin');
    const allow = origin === '' || listed.size === 0 ? undefined : allowed(origin);
    const requested = ctx.get('Access-Control-Request-Method').toUpperCase();
    if (ctx.method === 'OPTIONS' && requested !== '') {
      // A preflight for a write is left to the router (its Allow header, no CORS headers): the browser refuses.
      if (!allow || !READS.has(requested)) return next();
      ctx.set('Access-Control-Allow-Origin', allow);
      ctx.set('Access-Control-Allow-Methods', 'GET, HEAD, OPTIONS');
      const headers = ctx.get('Access-Control-Request-Headers');
      if (headers) ctx.set('Access-Control-Allow-Headers', headers);
      ctx.set('Access-Control-Max-Age', PREFLIGHT_MAX_AGE);
      ctx.status = 204;
      return;
    }
    if (allow && READS.has(ctx.method)) {
      ctx.set('Access-Control-Allow-Origin', allow);
      ctx.set('Access-Control-Expose-Headers', EXPOSED);
    }
    await next();
  };
}
