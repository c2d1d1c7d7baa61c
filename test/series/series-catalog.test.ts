import * as path from 'node:path';
import { expect } from 'chai';
import { SeriesDef, TableDef } from '../../framework/catalog/CatalogModel';
import { SeriesRollups } from '../../framework/series/SeriesRollups';
import { generateRows, keyRows } from '../bench/RowFactory';
import { parseCsv, tez } from '../support/SampleTable';
import { BACKEND } from '../support/TestDatabase';
import { manifestPlugin, startTestInstance, TestInstance } from '../support/TestInstance';
import { diffRows, expectedSeries, measuresOf, OracleRow, OracleQuery, windowOf } from './SeriesOracle';
import { body } from './TickTable';

const N = 1500;
const START = Date.UTC(2024, 0, 1);
const STEP = 53 * 60_000;
const iso = (ms: number): string => new Date(ms).toISOString();

/** Generated rows for a series' table, spread over ~55 days, heights rising with time, one in five blocks orphaned. */
function rowsFor(def: SeriesDef, seed: number): Array<Record<string, unknown>> {
  const table = def.table;
  return generateRows(table, N, seed).map((r, i) => ({
    ...r,
    [def.timeColumn.name]: new Date(START + i * STEP + (i % 7) * 1000),
    ...(table.heightColumn ? { [table.heightColumn]: BigInt(i + 1) } : {}),
    ...(table.orphanColumn ? { [table.orphanColumn]: i % 5 === 4 } : {}),
  }));
}

function oracleRows(def: SeriesDef, rows: Array<Record<string, unknown>>): OracleRow[] {
  return rows.map((r, i) => ({ ...r, row_id: i + 1, time: (r[def.timeColumn.name] as Date).getTime() }));
}

describe(`series of tables.yaml (${BACKEND})`, function () {
  let t: TestInstance;
  const data = new Map<string, OracleRow[]>();
  const notOrphan =
    (table: TableDef) =>
    (r: OracleRow): boolean =>
      !table.orphanColumn || r[table.orphanColumn] !== true;
  /** Rows the table lists unless a filter names them (op type `event`, `unknown`): no series counts them either. */
  const shown =
    (table: TableDef) =>
    (r: OracleRow): boolean =>
      table.columns.every((c) => !c.hiddenValues?.includes(r[c.name] as string));

  before(async function () {
    const plugins = ['core-chain', 'governance', 'bigmaps'].map((n) =>
      manifestPlugin(n, n === 'core-chain' ? [] : ['core-chain']),
    );
    // The checkout's tables.yaml (tests run from the repository root).
    t = await startTestInstance({
      plugins,
      enabled: ['core-chain'],
      config: { catalogFile: path.resolve('tables.yaml') },
    });
    let seed = 1;
    for (const def of t.app.catalog.series.values()) {
      const rows = rowsFor(def, seed++);
      await t.insert(def.table.code, rows);
      data.set(def.code, oracleRows(def, rows));
    }
    // The accounts whose ids the op's and flow's address filters run through (filter_via).
    await t.insert('account', keyRows(t.app.catalog.require('account'), 'address'));
  });
  after(async () => t?.close());

  it('serves the six series of the spec', function () {
    expect([...t.app.catalog.series.keys()].sort()).to.deep.equal([
      'balance',
      'block',
      'chain',
      'flow',
      'op',
      'supply',
    ]);
  });

  const query = (code: string, collapse: string, extra = ''): { path: string; q: OracleQuery } => {
    const [start, end] = [START, START + N * STEP];
    const [from, to] = windowOf(collapse, 50000, start, end, 0);
    return {
      path: `/series/${code}?collapse=${collapse}&limit=50000&start_date=${iso(start)}&end_date=${iso(end)}${extra}`,
      q: { collapse, from, to, order: 'asc', limit: 50000, fill: 'none' },
    };
  };

  async function expectOracle(
    code: string,
    collapse: string,
    source: RegExp,
    extra = '',
    keep?: (r: OracleRow) => boolean,
  ): Promise<void> {
    const def = t.app.catalog.series.get(code)!;
    const { path, q } = query(code, collapse, extra);
    const res = await t.get(path);
    const got = (await body(res)) as unknown[][];
    expect(res.status, JSON.stringify(got)).to.equal(200);
    expect(res.headers.get('x-series-source')).to.match(source);
    const base = notOrphan(def.table);
    const listed = shown(def.table);
    const kept = (r: OracleRow): boolean => (keep ? keep(r) : base(r)) && listed(r);
    const expected = expectedSeries(data.get(code)!, measuresOf(def), { ...q, keep: kept });
    expect(expected.length).to.be.greaterThan(1);
    const diff = diffRows(got, expected);
    if (diff) expect.fail(`${path}: ${diff}`);
  }

  for (const code of ['balance', 'block', 'chain', 'flow', 'op', 'supply']) {
    for (const collapse of ['1h', '1d', '1w']) {
      it(`${code} at ${collapse} equals the oracle (raw rows)`, async function () {
        await expectOracle(code, collapse, /^raw$/);
      });
    }
  }

  it('op: filters on non-aggregated columns (type, sender, status) select the rows aggregated', async function () {
    const rows = data.get('op')!;
    const sender = rows[3].sender as string;
    await expectOracle('op', '1d', /^raw$/, '&type=transaction', (r) => r.type === 'transaction');
    await expectOracle('op', '1d', /^raw$/, `&sender=${sender}`, (r) => r.sender === sender);
    await expectOracle(
      'op',
      '1w',
      /^raw$/,
      '&type.in=transaction,origination&is_success=1',
      (r) => (r.type === 'transaction' || r.type === 'origination') && r.is_success === true,
    );
  });

  it('block: orphans are left out unless the request filters on is_orphan', async function () {
    const orphan = (r: OracleRow): boolean => r.is_orphan === true;
    await expectOracle('block', '1d', /^raw$/, '&is_orphan=1', orphan);
    await expectOracle('block', '1d', /^raw$/, '&baker.ne=tz1burnburnburnburnburnburnburjAYjjX', (r) => !orphan(r));
  });

  it('op CSV: tez with 6 decimals and integer sums', async function () {
    const { path } = query('op', '1d');
    const csv = parseCsv(await (await t.get(path.replace('/series/op?', '/series/op.csv?'))).text());
    expect(csv[0]).to.deep.equal(['time', ...t.app.catalog.series.get('op')!.columns.map((c) => c.name)]);
    const day = data.get('op')!.filter((r) => r.time >= START && r.time < START + 86_400_000);
    const fee = csv[0].indexOf('fee');
    expect(csv[1][0]).to.equal('2024-01-01T00:00:00Z');
    expect(csv[1][fee]).to.equal(tez(day.reduce((s, r) => s + (r.fee as bigint), 0n)));
  });

  describe('with rollups', function () {
    before(async function () {
      const rollups = t.app.container.resolve(SeriesRollups);
      await t.app.db.writer.transaction((trx) => rollups.update(trx));
    });

    for (const code of ['balance', 'block', 'chain', 'flow', 'op', 'supply']) {
      it(`${code}: the rollup answers equal the oracle`, async function () {
        for (const [collapse, level] of [
          ['30m', '1m'],
          ['1h', '1h'],
          ['1d', '1d'],
          ['1M', '1d'],
        ])
          await expectOracle(code, collapse, new RegExp(`^rollup:${level}$`));
      });
    }

    it('block: a reorg that flags orphans (as ChainRollback does) and rollback() keep rollups exact', async function () {
      const rollups = t.app.container.resolve(SeriesRollups);
      const rows = data.get('block')!;
      const fork = 1000;
      await t.app.db.writer.transaction(async (trx) => {
        await trx.withSchema('core_chain').table('block').where('height', '>', fork).update({ is_orphan: true });
        await rollups.rollback(trx, fork);
      });
      for (const r of rows) if ((r.height as bigint) > BigInt(fork)) r.is_orphan = true;
      for (const collapse of ['1h', '1d', '1w']) await expectOracle('block', collapse, /^rollup:/);
    });
  });
});
