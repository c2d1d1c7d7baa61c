import type { Context } from 'koa';
import { ApiError, ErrorCode } from '../../framework';

/**
 * A request's JSON body, read with a size limit: a Content-Length above it is refused before reading,
 * a body that turns out longer is cut off at the limit; both answer 413.
 */
export async function jsonBody(ctx: Context, maxBytes: number): Promise<unknown> {
  const tooBig = (): ApiError => new ApiError(413, ErrorCode.DEMARSHAL_FAILED, `request body exceeds ${maxBytes} bytes`);
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
  const text = Buffer.concat(chunks).toString('utf8');
  if (text.trim() === '') throw new ApiError(400, ErrorCode.DEMARSHAL_FAILED, 'request body is empty: a JSON document is expected');
  try {
    return JSON.parse(text);
  } catch (e) {
    throw new ApiError(400, ErrorCode.DEMARSHAL_FAILED, `request body is not valid JSON: ${(e as Error).message}`);
  }
}
