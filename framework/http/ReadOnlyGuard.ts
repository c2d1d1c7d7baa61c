import type { Context, Next } from 'koa';
import { readOnlyInstance } from '../storage/DatabaseErrors';

/** Methods that only read: every other one is a write. */
const READS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * On a read-only instance (`tzidx serve`): every write route answers 403 before its handler runs,
 * whatever its own access checks (an API key) would say, instead of failing in the database's
 * read-only session. Router middleware, so it runs only for a route that matched (unknown paths and
 * methods keep their 404 and 405).
 */
export function refuseWrites() {
  return (ctx: Context, next: Next): Promise<void> => {
    if (!READS.has(ctx.method)) throw readOnlyInstance();
    return next();
  };
}
