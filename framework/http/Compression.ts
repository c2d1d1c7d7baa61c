import { Context, Next } from 'koa';
import compress from 'koa-compress';

/**
 * gzip/deflate/br when the client accepts it; answers under `threshold` bytes are not worth it. A
 * client that refuses every coding we have (`identity;q=0, *;q=0`) gets the answer uncompressed, as
 * RFC 9110 §12.5.3 advises and nginx and Apache do, instead of koa-compress failing on it.
 */
export function compression(threshold: number) {
  const compressor = compress({ threshold });
  return (ctx: Context, next: Next): Promise<void> => {
    if (!ctx.acceptsEncodings(compressor.preferredEncodings)) ctx.compress = false;
    return compressor(ctx, next);
  };
}
