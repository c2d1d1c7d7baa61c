import * as path from 'node:path';
import { Client } from 'pg';
import { ColumnDef, storedColumns, TableDef } from '../../framework/catalog/CatalogModel';
import { EnumType } from '../../framework/catalog/types/EnumType';
import { SeriesRollups } from '../../framework/series/SeriesRollups';
import { BulkWriter } from '../../framework/storage/BulkWriter';
import { quote } from '../../framework/storage/SchemaMigrator';
import { manifestPlugin, startTestInstance } from '../support/TestInstance';
import { generateRows } from './RowFactory';
import { BenchResult, interleaved, median, time } from './measure';

const ROWS = 10_000_000;
const RUNS = 5;
const YEAR = { from: '2024-01-01T00:00:00Z', to: '2025-01-01T00:00:00Z' };
/** 365 days over ROWS rows: one row every 3.1536 s. */
const STEP_US = Math.round((365 * 86_400 * 1e6) / ROWS);

/**
 * /series/op at 1d over one year of 10M op rows (Postgres): the API (rollup path, and the raw path
 * forced by a filter) against a raw `GROUP BY date_trunc('day', time)` of the same sums in the same
 * run. Rows are generated in SQL (`INSERT … SELECT generate_series`), secondary indexes built after.
 */
export async function seriesBench(): Promise<BenchResult[]> {
  const plugins = ['core-chain', 'governance', 'bigmaps'].map((n) =>
    manifestPlugin(n, n === 'core-chain' ? [] : ['core-chain']),
  );
  const t = await startTestInstance({
    plugins,
    enabled: ['core-chain'],
    config: { catalogFile: path.resolve('tables.yaml') },
  });
  const client = new Client({ connectionString: t.app.config.databaseUrl });
  await client.connect();
  try {
    await client.query("set time zone 'UTC'");
    const op = t.app.catalog.table('op')!;
    const target = `${quote(op.schema)}.${quote(op.storage)}`;
    const indexes = (
      await client.query(
        `select indexname, indexdef from pg_indexes where schemaname = $1 and tablename = $2 and indexname not like '%pkey'`,
        [op.schema, op.storage],
      )
    ).rows;
    const [insertSeconds] = await time(async () => {
      for (const ix of indexes) await client.query(`drop index ${quote(op.schema)}.${quote(ix.indexname)}`);
      await client.query(generateSql(op, target));
    }, 1);
    const [indexSeconds] = await time(async () => {
      for (const ix of indexes) await client.query(ix.indexdef);
      await client.query(`analyze ${target}`);
    }, 1);

    const rollups = t.app.container.resolve(SeriesRollups);
    const [buildSeconds] = await time(() => t.app.db.writer.transaction((trx) => rollups.update(trx)), 1);

    const series = t.app.catalog.series.get('op')!;
    const sums = series.columns.map((c) => (c.agg === 'count' ? 'count(*)' : `sum(${quote(c.source!.name)})`));
    const raw = async (): Promise<number> => {
      const res = await client.query({
        text: `select date_trunc('day', "time") as d, ${sums.join(', ')} from ${target} where "time" >= $1 and "time" < $2 group by 1 order by 1`,
        values: [YEAR.from, YEAR.to],
        rowMode: 'array',
      });
      return res.rows.length;
    };
    const api = (extra: string, source: string) => async (): Promise<number> => {
      const res = await t.get(`/series/op?collapse=1d&limit=50000&start_date=${YEAR.from}&end_date=2024-12-31${extra}`);
      const body = (await res.json()) as unknown[];
      if (res.status !== 200 || res.headers.get('x-series-source') !== source)
        throw new Error(
          `status ${res.status} from ${res.headers.get('x-series-source')}: ${JSON.stringify(body).slice(0, 200)}`,
        );
      if (body.length !== 366) throw new Error(`expected 366 days, got ${body.length}`);
      return body.length;
    };
    const rolled = api('', 'rollup:1d');
    const rawApi = api('&height.gte=0', 'raw');
    await raw();
    await rolled();
    const [floor, ours, oursRaw] = await interleaved([raw, rolled, rawApi], RUNS);

    // What the indexer pays per block: append ~30 op rows, fold them in, in one transaction.
    const writer = new BulkWriter(t.app.db.kind);
    let height = ROWS;
    const block = async (): Promise<void> => {
      height += 1;
      const rows = generateRows(op, 30, height).map((r) => ({
        ...r,
        height: BigInt(height),
        time: new Date(Date.parse(YEAR.to) + height * 8000),
      }));
      await t.app.db.writer.transaction(async (trx) => {
        await writer.append(trx, op, rows);
        await rollups.update(trx);
      });
    };
    const perBlock = median(await time(block, 20));

    return [
      {
        name: `series: generate ${ROWS.toLocaleString('en-US')} op rows (INSERT … SELECT generate_series, no secondary indexes)`,
        seconds: insertSeconds,
        rate: ROWS / insertSeconds,
        unit: 'rows/s',
      },
      { name: `series: build the ${indexes.length} secondary op indexes and analyze`, seconds: indexSeconds },
      {
        name: 'series: first SeriesRollups.update() over the whole table (6 series × 3 levels)',
        seconds: buildSeconds,
        rate: ROWS / buildSeconds,
        unit: 'op rows/s',
      },
      { name: "series: raw GROUP BY date_trunc('day', time) over one year (pg, no encoding)", seconds: floor },
      {
        name: 'series: GET /series/op?collapse=1d over one year (rollup:1d)',
        seconds: ours,
        ratio: ours / floor,
        target: 0.1,
      },
      {
        name: 'series: GET /series/op?collapse=1d over one year, raw path (filter height.gte=0)',
        seconds: oursRaw,
        ratio: oursRaw / floor,
        target: 1.5,
      },
      {
        name: 'series: one block of 30 op rows appended + SeriesRollups.update() in its transaction',
        seconds: perBlock,
      },
    ];
  } finally {
    await client.end();
    await t.close();
  }
}

/**
 * INSERT … SELECT over generate_series: every non-null stored column gets a cheap deterministic value
 * of its type (columns read through another table or computed, such as op `block` and `id`, have none).
 */
export function generateSql(table: TableDef, target: string, rows = ROWS): string {
  const columns = storedColumns(table).filter((c) => c.name !== 'row_id' && !c.nullable);
  const values = columns.map((c, i) => valueSql(table, c, i));
  return `insert into ${target} (${columns.map((c) => quote(c.name)).join(', ')})
          select ${values.join(', ')} from generate_series(1::bigint, ${rows}) as g`;
}

function valueSql(table: TableDef, c: ColumnDef, i: number): string {
  if (c.name === 'time') return `timestamptz '${YEAR.from}' + g * interval '${STEP_US} microseconds'`;
  if (c.name === table.heightColumn) return 'g / 20';
  const t = c.type;
  // An enum stores its label's position (EnumType).
  if (t instanceof EnumType) return `(g % ${t.values.length})::smallint`;
  switch (t.name) {
    case 'int64':
    case 'uint64':
      return `(g * ${7919 + i * 104}) % 100000`;
    case 'money':
      return `(g * ${104729 + i * 13}) % 5000000`;
    case 'float64':
      return '(g % 1000) / 8.0';
    case 'bool':
      return `(g % ${2 + (i % 3)}) = 0`;
    case 'datetime':
      return `timestamptz '${YEAR.from}'`;
    case 'bytes':
      return "'\\x00'::bytea";
    default:
      return `'v${i}'`;
  }
}
