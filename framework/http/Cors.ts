import koaCors from '@koa/cors';
import type { Context } from 'koa';

/**
 * Cross-origin reads, as public chain APIs allow them: a browser page on another origin may GET and
 * HEAD anything (@koa/cors answers its preflight for those methods), never write. `origins` is the
 * config's `cors_origins`: `*` for any origin, else the exact origins allowed; empty turns CORS off.
 */
const READS = new Set(['GET', 'HEAD']);
/** Headers a page may read besides the CORS-safelisted ones. */
const EXPOSED = [
  'X-Request-Id',
  'X-Runtime',
  'X-Chain-Height',
  'X-Network-Id',
  'X-Protocol-Hash',
  'X-Series-Source',
  'X-Streaming-Count',
  'X-Streaming-Cursor',
  'X-Streaming-Error',
  'ETag',
  'Retry-After',
];
const PREFLIGHT_MAX_AGE = 86400;

export function cors(origins: readonly string[]) {
  const any = origins.includes('*');
  const listed = new Set(origins);
  // The method a request (or the write its preflight announces) would run: no CORS headers for a write,
  // so the browser refuses it; '' tells @koa/cors to add none.
  const origin = (ctx: Context): string => {
    const method = ctx.method === 'OPTIONS' ? ctx.get('Access-Control-Request-Method').toUpperCase() : ctx.method;
    if (!READS.has(method) && !(ctx.method === 'OPTIONS' && method === '')) return '';
    if (any) return '*';
    const from = ctx.get('Origin');
    return listed.has(from) ? from : '';
  };
  return koaCors({ origin, allowMethods: 'GET, HEAD, OPTIONS', exposeHeaders: EXPOSED, maxAge: PREFLIGHT_MAX_AGE });
}
