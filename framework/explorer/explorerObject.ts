import type { Context } from 'koa';
import { ApiError } from '../errors/ApiError';
import type { ObjectAnswer } from '../http/ObjectResponder';
import type { RouteDoc } from '../http/RouteDoc';
import type { RouteRegistry } from '../http/RouteRegistry';

/**
 * An explorer object route whose path may end in a literal segment (`/tip`, `/{id}/operations`):
 * such a segment also takes a format suffix, `.json` being the only one explorer objects have
 * (anything else is 400/1001, as for ids, which RouteRegistry.object checks itself).
 */
export function explorerObject(
  r: RouteRegistry,
  path: string,
  scope: string,
  load: (ctx: Context) => Promise<ObjectAnswer>,
  doc: RouteDoc = {},
): void {
  if (/\/:\w+$/.test(path)) {
    r.object(path, scope, load, doc);
    return;
  }
  r.object(
    `${path}{.:format}`,
    scope,
    (ctx) => {
      const format = ctx.params.format;
      delete ctx.params.format;
      if (format !== undefined && format.toLowerCase() !== 'json') throw ApiError.unsupportedFormat(format);
      return load(ctx);
    },
    doc,
  );
}
