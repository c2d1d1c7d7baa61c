import { Client } from 'pg';
import { Pool as HttpPool } from 'undici';
import { TABLE_PROFILE } from '../../framework/query/ListProfile';
import { JsonRowsEncoder } from '../../framework/query/RowEncoder';
import { TableQueryEngine } from '../../framework/query/TableQueryEngine';
import { parseTableRequest } from '../../framework/query/TableRequest';
import { BulkWriter } from '../../framework/storage/BulkWriter';
import { manifestPlugin, startTestInstance } from '../support/TestInstance';
import { generateRows } from './RowFactory';
import { BenchResult, interleaved } from './measure';

const ROWS = 50_000;
const RUNS = 5;

/**
 * /tables/op?limit=50000 (the widest hot table) over HTTP, against a floor doing the same work in the
 * same run: the same SELECT (the API's columns, filters and SQL renderings, one query instead of
 * chunks) through a raw `pg` client, encoded by the same row encoder into the same bytes (checked).
 * The API is asked without compression, as the floor does none. Both report how much memory they
 * kept alive while answering: the API streams chunk by chunk, the floor holds every row at once.
 */
export async function tablesBench(): Promise<BenchResult[]> {
  const plugins = ['core-chain', 'governance', 'bigmaps'].map((n) =>
    manifestPlugin(n, n === 'core-chain' ? [] : ['core-chain']),
  );
  const t = await startTestInstance({ plugins, enabled: ['core-chain'] });
  try {
    const op = t.app.catalog.table('op')!;
    await t.app.db.writer.transaction((trx) => new BulkWriter(t.app.db.kind).append(trx, op, generateRows(op, ROWS)));
    const req = parseTableRequest(op, { limit: String(ROWS) }, TABLE_PROFILE);
    const { sql, bindings } = new TableQueryEngine(t.app.db)
      .query(op, req, 'compact', undefined, 0, ROWS)
      .toSQL()
      .toNative();
    const client = new Client({ connectionString: t.app.config.databaseUrl });
    await client.connect();
    const http = new HttpPool(t.url, { connections: 1 });
    try {
      const floor = async (): Promise<string> => {
        const res = await client.query({ text: sql, values: bindings as unknown[], rowMode: 'array' });
        const encoder = new JsonRowsEncoder(req.columns, 'array');
        return encoder.begin() + encoder.rows(res.rows) + encoder.end();
      };
      const api = async (keep: boolean, encoding = 'identity'): Promise<string> => {
        const res = await http.request({
          path: `/tables/op?limit=${ROWS}`,
          method: 'GET',
          headers: { 'accept-encoding': encoding },
        });
        if (res.statusCode !== 200)
          throw new Error(`status ${res.statusCode}: ${(await res.body.text()).slice(0, 200)}`);
        if (keep) return res.body.text();
        for await (const chunk of res.body) void chunk;
        return '';
      };
      const [ours, theirs] = [await api(true), await floor()];
      if (ours !== theirs)
        throw new Error(`the API's answer (${ours.length} chars) differs from the floor's (${theirs.length} chars)`);
      const rows = (JSON.parse(ours) as unknown[]).length;
      const [floorSeconds, apiSeconds, gzipSeconds] = await interleaved(
        [floor, () => api(false), () => api(false, 'gzip')],
        RUNS,
      );
      const [floorGrowth, apiGrowth] = [await liveGrowth(floor), await liveGrowth(() => api(false))];
      const what = `${rows} op rows, ${req.columns.length} columns, ${(ours.length / 1e6).toFixed(1)} MB of JSON`;
      return [
        {
          name: `tables floor: the same SELECT by raw pg + the same encoder, ${what} (live memory +${mib(floorGrowth)} MiB)`,
          seconds: floorSeconds,
          rate: rows / floorSeconds,
          unit: 'rows/s',
        },
        {
          name: `tables: GET /tables/op?limit=${ROWS} over HTTP, uncompressed, streamed (live memory +${mib(apiGrowth)} MiB)`,
          seconds: apiSeconds,
          rate: rows / apiSeconds,
          unit: 'rows/s',
          ratio: apiSeconds / floorSeconds,
          target: 1.5,
        },
        {
          name: `tables: the same, gzip (what HTTP clients ask for by default; the floor compresses nothing)`,
          seconds: gzipSeconds,
          rate: rows / gzipSeconds,
          unit: 'rows/s',
          ratio: gzipSeconds / floorSeconds,
        },
      ];
    } finally {
      await http.close();
      await client.end();
    }
  } finally {
    await t.close();
  }
}

/**
 * Peak of the memory `fn` keeps alive (JavaScript heap and buffers) over what was alive before it
 * (bytes): sampled every 10 ms right after a full GC, so garbage not yet collected does not count.
 * Needs node --expose-gc (npm run bench has it); undefined without. A run of its own, never timed.
 */
async function liveGrowth(fn: () => Promise<unknown>): Promise<number | undefined> {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) return undefined;
  const live = (): number => {
    gc();
    const m = process.memoryUsage();
    return m.heapUsed + m.external;
  };
  const before = live();
  let peak = before;
  const timer = setInterval(() => (peak = Math.max(peak, live())), 10);
  try {
    await fn();
  } finally {
    clearInterval(timer);
  }
  return peak - before;
}

function mib(bytes: number | undefined): string {
  return bytes === undefined ? '? (run node with --expose-gc)' : (bytes / 2 ** 20).toFixed(0);
}
