import { Client } from 'pg';
import { BulkWriter } from '../../framework/storage/BulkWriter';
import { manifestPlugin, startTestInstance } from '../support/TestInstance';
import { generateRows } from './RowFactory';
import { BenchResult, median, time } from './measure';

const ROWS = 50_000;
const RUNS = 5;

/**
 * /tables/op?limit=50000 (the widest hot table) over HTTP, against the floor of the same rows fetched by
 * a raw `pg` query and serialized with JSON.stringify, both on the same Postgres in the same run.
 */
export async function tablesBench(): Promise<BenchResult[]> {
  const plugins = ['core-chain', 'governance', 'bigmaps'].map((n) => manifestPlugin(n, n === 'core-chain' ? [] : ['core-chain']));
  const t = await startTestInstance({ plugins, enabled: ['core-chain'] });
  try {
    const op = t.app.catalog.table('op')!;
    const rows = generateRows(op, ROWS);
    await t.app.db.writer.transaction((trx) => new BulkWriter(t.app.db.kind).append(trx, op, rows));
    const client = new Client({ connectionString: t.app.config.databaseUrl });
    await client.connect();
    try {
      const rawQuery = async (): Promise<number> => {
        const res = await client.query({ text: `select * from core_chain.op order by row_id limit ${ROWS}`, rowMode: 'array' });
        return JSON.stringify(res.rows).length;
      };
      const api = async (): Promise<number> => {
        const res = await t.get(`/tables/op?limit=${ROWS}`);
        const text = await res.text();
        if (res.status !== 200) throw new Error(`status ${res.status}: ${text.slice(0, 200)}`);
        return text.length;
      };
      await rawQuery();
      await api();
      const floor = median(await time(rawQuery, RUNS));
      const ours = median(await time(api, RUNS));
      return [
        { name: `tables: raw pg + JSON.stringify, ${ROWS} op rows (${op.columns.length} columns)`, seconds: floor, rate: ROWS / floor, unit: 'rows/s' },
        { name: `tables: GET /tables/op?limit=${ROWS} over HTTP`, seconds: ours, rate: ROWS / ours, unit: 'rows/s', ratio: ours / floor, target: 1.5 },
      ];
    } finally {
      await client.end();
    }
  } finally {
    await t.close();
  }
}
