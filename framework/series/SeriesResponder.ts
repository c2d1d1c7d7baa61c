import { Readable } from 'node:stream';
import { Context } from 'koa';
import { injectable } from 'tsyringe';
import { ColumnDef, SeriesDef } from '../catalog/CatalogModel';
import { columnType } from '../catalog/types/ColumnTypes';
import { Format } from '../http/CollectionResponder';
import { CsvEncoder, JsonRowsEncoder, RowEncoder } from '../query/RowEncoder';
import { Filter, QueryArgs } from '../query/TableRequest';
import { RawRow } from '../query/TableQueryEngine';
import { databaseErrorToApi } from '../storage/DatabaseErrors';
import { rfc3339 } from '../time/TimeExpression';
import { compileSeries } from './CompiledSeries';
import type { SeriesEndpoint } from '../http/RouteRegistry';
import { fillGaps, measureGapRule } from './SeriesFill';
import { SeriesQueryEngine, SeriesResult } from './SeriesQueryEngine';
import { parseSeriesRequest } from './SeriesRequest';

const TIME_COLUMN: ColumnDef = {
  name: 'time',
  type: columnType('datetime'),
  nullable: false,
  description: 'bucket start',
  inDefault: true,
};
const CHUNK_ROWS = 5000;

/**
 * Answers a time-series request: `[[time, v1, v2…], …]` in JSON (time in unix ms) or CSV with a
 * header (time in RFC3339), encoded by the same row encoders as the tables API. The whole answer
 * (at most `limit` buckets) is computed before the first byte, so every failure is a JSON error.
 */
@injectable()
export class SeriesResponder implements SeriesEndpoint {
  constructor(private readonly engine: SeriesQueryEngine) {}

  check(def: SeriesDef): void {
    compileSeries(def);
  }

  async respond(ctx: Context, def: SeriesDef, format: Format, extraFilters: readonly Filter[] = []): Promise<void> {
    const series = compileSeries(def);
    const req = parseSeriesRequest(series, ctx.query as QueryArgs, new Date(), extraFilters);
    const enc = format === 'csv' ? 'csv' : 'compact';
    let result: SeriesResult;
    try {
      result = await this.engine.query(series, req, enc);
    } catch (e) {
      throw databaseErrorToApi(e);
    }
    const rows = fillGaps(result.rows, req, req.measures.map(measureGapRule));
    if (enc === 'csv') for (const row of rows) row[0] = rfc3339(Number(row[0]));
    const columns = [TIME_COLUMN, ...req.measures.map((m) => m.output)];
    const encoder = format === 'csv' ? new CsvEncoder(columns) : new JsonRowsEncoder(columns, 'array');
    ctx.status = 200;
    ctx.type = encoder.contentType;
    ctx.set('X-Series-Source', result.source);
    ctx.body = Readable.from(encode(encoder, rows));
  }
}

function* encode(encoder: RowEncoder, rows: RawRow[]): Generator<string> {
  let out = encoder.begin();
  for (let i = 0; i < rows.length; i += CHUNK_ROWS) {
    yield out + encoder.rows(rows.slice(i, i + CHUNK_ROWS));
    out = '';
  }
  yield out + encoder.end();
}
