import { Readable } from 'node:stream';
import { Context } from 'koa';
import { injectable } from 'tsyringe';
import { TableDef } from '../catalog/CatalogModel';
import { ListProfile } from '../query/ListProfile';
import { CsvEncoder, JsonRowsEncoder, RowEncoder } from '../query/RowEncoder';
import { Filter, parseTableRequest, QueryArgs } from '../query/TableRequest';
import { RawRow, TableQueryEngine } from '../query/TableQueryEngine';
import { databaseErrorToApi } from '../storage/DatabaseErrors';
import { ApiError } from '../errors/ApiError';

export type Format = 'json' | 'csv';

/** Splits `block.csv` into the name and its format suffix; no suffix means JSON. */
export function splitFormat(segment: string): { name: string; format: Format } {
  const dot = segment.lastIndexOf('.');
  if (dot < 0) return { name: segment, format: 'json' };
  const format = segment.slice(dot + 1).toLowerCase();
  if (format !== 'json' && format !== 'csv') throw ApiError.unsupportedFormat(segment.slice(dot + 1));
  return { name: segment.slice(0, dot), format };
}

/**
 * Answers a collection request over a catalog table with any profile: parses the arguments, runs the
 * first chunk before committing to a 200 (so bad filters and timeouts still get a JSON error), then
 * streams the rest. A failure after the first byte ends the stream with an `X-Streaming-Error`
 * trailer and an aborted body, so a client can never mistake a cut-off answer for a complete one.
 */
@injectable()
export class CollectionResponder {
  constructor(private readonly engine: TableQueryEngine) {}

  async respond(
    ctx: Context,
    table: TableDef,
    profile: ListProfile,
    format: Format,
    extraFilters: readonly Filter[] = [],
  ): Promise<void> {
    if (format === 'csv' && !profile.allowCsv) throw ApiError.unsupportedFormat('csv');
    const parsed = parseTableRequest(table, ctx.query as QueryArgs, profile);
    const req = { ...parsed, filters: [...extraFilters, ...parsed.filters] };
    const encoder: RowEncoder =
      format === 'csv' ? new CsvEncoder(req.columns) : new JsonRowsEncoder(req.columns, profile.rowShape);
    const chunks = this.engine.chunks(table, req, encoder.encoding);
    let first: IteratorResult<RawRow[]>;
    try {
      first = await chunks.next();
    } catch (e) {
      throw databaseErrorToApi(e);
    }
    ctx.status = 200;
    ctx.type = encoder.contentType;
    const filename = ctx.query.filename;
    if (typeof filename === 'string' && /^[\w.-]{1,100}$/.test(filename)) ctx.attachment(filename);
    // HEAD: GET's status and headers, no body; Node refuses trailers on an answer that is not chunked.
    if (ctx.method === 'HEAD') return;
    ctx.set('Trailer', 'X-Streaming-Count, X-Streaming-Cursor, X-Streaming-Error');
    // One encoded chunk waits for the socket at most (the default reads 16 ahead: a whole 50,000-row answer).
    ctx.body = Readable.from(stream(ctx, encoder, first, chunks, req.columns.length, req.cursor), { highWaterMark: 1 });
  }
}

async function* stream(
  ctx: Context,
  encoder: RowEncoder,
  first: IteratorResult<RawRow[]>,
  rest: AsyncGenerator<RawRow[]>,
  width: number,
  cursor: string | undefined,
): AsyncGenerator<string> {
  let count = 0;
  let last = cursor ?? '';
  const trailers = (error?: string): void => {
    ctx.res.addTrailers({
      'X-Streaming-Count': String(count),
      'X-Streaming-Cursor': last,
      ...(error ? { 'X-Streaming-Error': error } : {}),
    });
  };
  let head = encoder.begin();
  try {
    for (let chunk = first; !chunk.done; chunk = await rest.next()) {
      count += chunk.value.length;
      last = chunk.value[chunk.value.length - 1][width] ?? last;
      yield head + encoder.rows(chunk.value);
      head = '';
    }
  } catch (e) {
    trailers(databaseErrorToApi(e).detail);
    throw e;
  }
  trailers();
  yield head + encoder.end();
}
