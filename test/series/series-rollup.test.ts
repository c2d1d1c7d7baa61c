import { expect } from 'chai';
import { COLLAPSE_CODES } from '../../framework/series/Collapse';
import { compileSeries } from '../../framework/series/CompiledSeries';
import { SeriesQueryEngine, SeriesSource } from '../../framework/series/SeriesQueryEngine';
import { parseSeriesRequest } from '../../framework/series/SeriesRequest';
import { definitionHash, SeriesRollups } from '../../framework/series/SeriesRollups';
import { parseCatalog } from '../../framework/catalog/CatalogLoader';
import { QueryArgs } from '../../framework/query/TableRequest';
import { prng } from '../support/SampleTable';
import { BACKEND } from '../support/TestDatabase';
import { manifestPlugin, startTestInstance, TestInstance } from '../support/TestInstance';
import { diffRows, expectedSeries, OracleRow, windowOf } from './SeriesOracle';
import {
  body,
  CLUSTER,
  laterTicks,
  SPAN,
  TICK_CATALOG,
  TICK_MEASURES,
  TickRow,
  tickRows,
  toTickWriterRow,
} from './TickTable';

const iso = (ms: number): string => new Date(ms).toISOString();

/** Requests spread over every collapse, order, limit and window shape (no filters: those never use rollups). */
function requests(seed: number, n: number): QueryArgs[] {
  const rnd = prng(seed);
  const pick = (lo: number, hi: number): number => lo + Math.floor(rnd() * (hi - lo + 1));
  const out: QueryArgs[] = COLLAPSE_CODES.map((collapse) => ({
    collapse,
    limit: '50000',
    start_date: iso(SPAN.from - 86_400_000 * 40),
    end_date: iso(SPAN.to),
  }));
  for (let i = 0; i < n; i++) {
    const collapse = COLLAPSE_CODES[pick(0, COLLAPSE_CODES.length - 1)];
    const anchor =
      rnd() < 0.5
        ? CLUSTER.from + pick(-90, 200) * 60_000 + pick(0, 59_999)
        : SPAN.from + Math.floor(rnd() * (SPAN.to - SPAN.from));
    const args: QueryArgs = { collapse, limit: String(pick(1, 400)), order: rnd() < 0.5 ? 'asc' : 'desc' };
    if (rnd() < 0.7) args.start_date = iso(anchor);
    if (!args.start_date || rnd() < 0.5) args.end_date = iso(anchor + pick(0, 400) * 3_600_000);
    out.push(args);
  }
  return out;
}

describe(`series rollups (${BACKEND})`, function () {
  let t: TestInstance;
  let rows: TickRow[];
  let rollups: SeriesRollups;
  let engine: SeriesQueryEngine;
  const now = Date.now();

  const series = () => compileSeries(t.app.catalog.series.get('tick')!);
  const run = async (args: QueryArgs, source: SeriesSource) => {
    const s = series();
    return engine.query(s, parseSeriesRequest(s, args, new Date(now)), 'compact', source);
  };
  const update = () => t.app.db.writer.transaction((trx) => rollups.update(trx));
  const nextRowId = async (): Promise<number> => {
    const [{ max }] = (await t.app.db.writer.raw('select coalesce(max(row_id), 0)::int as max from fixture.tick')).rows;
    return max + 1;
  };

  /**
   * Every request: raw and rollup give the same rows, and the API (reading the rollup) equals the oracle over `data`.
   */
  async function agree(data: OracleRow[], seed: number): Promise<void> {
    for (const args of requests(seed, 40)) {
      const raw = await run(args, 'raw');
      const rolled = await run(args, 'rollup');
      expect(rolled.source).to.equal(`rollup:${levelOf(args.collapse as string)}`);
      expect(rolled.rows, JSON.stringify(args)).to.deep.equal(raw.rows);
      const res = await t.get(`/series/tick?${new URLSearchParams(args as Record<string, string>).toString()}`);
      expect(res.headers.get('x-series-source')).to.equal(rolled.source);
      const limit = Number(args.limit);
      const [from, to] = windowOf(args.collapse as string, limit, parse(args.start_date), parse(args.end_date), now);
      const expected = expectedSeries(data, TICK_MEASURES, {
        collapse: args.collapse as string,
        from,
        to,
        order: (args.order as 'asc' | 'desc') ?? 'asc',
        limit,
        fill: 'none',
      });
      const diff = diffRows((await body(res)) as unknown[][], expected);
      if (diff) expect.fail(`${JSON.stringify(args)}: ${diff}`);
    }
  }

  before(async function () {
    t = await startTestInstance({
      catalogYaml: TICK_CATALOG,
      plugins: [manifestPlugin('fixture')],
      enabled: ['fixture'],
    });
    rollups = t.app.container.resolve(SeriesRollups);
    engine = t.app.container.resolve(SeriesQueryEngine);
    rows = tickRows(5, now);
    await t.insert('tick', rows.map(toTickWriterRow));
    expect(await nextRowId()).to.equal(rows.length + 1);
  });
  after(async () => t?.close());

  it('before the first update, answers come from the raw rows', async function () {
    const res = await t.get('/series/tick?collapse=1d&start_date=2024-01-01&end_date=2024-02-01');
    expect(res.headers.get('x-series-source')).to.equal('raw');
    expect(await rollups.usable(series(), '1d')).to.equal(false);
  });

  it('update() builds every level (in slices); rollup and raw answers are identical and equal the oracle', async function () {
    rollups.sliceRows = 97;
    try {
      const report = await update();
      expect(report.watermarks.tick).to.equal(String(rows.length));
    } finally {
      rollups.sliceRows = 1_000_000;
    }
    for (const level of ['1m', '1h', '1d'] as const) expect(await rollups.usable(series(), level)).to.equal(true);
    await agree(rows, 1);
  });

  it('the API reads the coarsest level that tiles the collapse, unless a filter needs raw rows', async function () {
    for (const [collapse, level] of [
      ['1m', '1m'],
      ['30m', '1m'],
      ['1h', '1h'],
      ['12h', '1h'],
      ['1d', '1d'],
      ['1w', '1d'],
      ['3M', '1d'],
      ['1y', '1d'],
    ]) {
      const res = await t.get(`/series/tick?collapse=${collapse}&start_date=2024-01-01&end_date=2024-03-01`);
      expect(res.headers.get('x-series-source'), collapse).to.equal(`rollup:${level}`);
      await res.text();
    }
    const filtered = await t.get('/series/tick?collapse=1d&start_date=2024-01-01&end_date=2024-03-01&kind=alpha');
    expect(filtered.headers.get('x-series-source')).to.equal('raw');
    await filtered.text();
  });

  it('a rollup storing fewer rows than the raw table: a year at 1d reads at most 366 day buckets', async function () {
    const [{ n }] = (await t.app.db.reader.raw('select count(*)::int as n from fixture.rollup_tick_1d')).rows;
    expect(n).to.be.lessThan(rows.length / 3);
  });

  it('rows written after the last update (lagging update) are still counted: rollup + raw tail', async function () {
    const extra = laterTicks(77, 300, CLUSTER.from - 3_600_000, CLUSTER.to + 3_600_000, 100_000, await nextRowId());
    await t.insert('tick', extra.map(toTickWriterRow));
    rows = [...rows, ...extra];
    await agree(rows, 2);
    await update();
    await agree(rows, 3);
  });

  it('rollback(height) after deleting rows above it: rollup equals raw and the oracle; then update() folds new rows', async function () {
    // A fork inside the cluster: every level has buckets that mix kept and removed rows.
    const fork = rows
      .filter((r) => r.time >= CLUSTER.from + 90 * 60_000 && r.height < 100_000)
      .sort((a, b) => a.time - b.time)[0].height;
    await t.app.db.writer.transaction(async (trx) => {
      await trx.withSchema('fixture').table('tick').where('height', '>', fork).delete();
      await rollups.rollback(trx, fork);
    });
    const kept = rows.filter((r) => r.height <= fork);
    expect(kept.length).to.be.within(100, rows.length - 100);
    await agree(kept, 4);

    const resumed = laterTicks(
      78,
      400,
      CLUSTER.from + 60 * 60_000,
      CLUSTER.to + 86_400_000 * 60,
      fork + 1,
      await nextRowId(),
    );
    await t.insert('tick', resumed.map(toTickWriterRow));
    await update();
    rows = [...kept, ...resumed];
    await agree(rows, 5);
  });

  it('rollback above every stored height changes nothing', async function () {
    const before = await run({ collapse: '1h', start_date: iso(CLUSTER.from), end_date: iso(CLUSTER.to) }, 'rollup');
    await t.app.db.writer.transaction((trx) => rollups.rollback(trx, 10_000_000));
    expect(
      (await run({ collapse: '1h', start_date: iso(CLUSTER.from), end_date: iso(CLUSTER.to) }, 'rollup')).rows,
    ).to.deep.equal(before.rows);
  });

  it('a changed definition makes the rollup unusable until update() rebuilds it', async function () {
    await t.app.db.writer.raw(
      `update tzidx.series_rollup set definition = 'outdated' where series = 'tick' and level = '1h'`,
    );
    expect(await rollups.usable(series(), '1h')).to.equal(false);
    expect((await run({ collapse: '4h', start_date: '2024-03-01', end_date: '2024-05-01' }, 'auto')).source).to.equal(
      'raw',
    );
    await update();
    expect(await rollups.usable(series(), '1h')).to.equal(true);
    await agree(rows, 6);
  });

  it('declaring that rows settle after later blocks changes the definition: a rollup folded before is rebuilt once', function () {
    const tick = (yaml: string) => compileSeries(parseCatalog(yaml).series.get('tick')!);
    const settling = tick(
      TICK_CATALOG.replace(
        '        height_column: height\n',
        '        height_column: height\n        settles_after: 1\n',
      ),
    );
    expect(settling.def.table.settlesAfter).to.equal(1);
    for (const level of ['1m', '1h', '1d'] as const) {
      expect(definitionHash(settling, level), level).to.not.equal(definitionHash(tick(TICK_CATALOG), level));
      expect(definitionHash(tick(TICK_CATALOG), level), level).to.equal(definitionHash(series(), level));
    }
  });

  it('series over mutable tables have no rollup and always read raw rows', async function () {
    expect(rollups.covered().map((s) => s.def.code)).to.deep.equal(['tick']);
    await t.insert('gauge', [
      { time: new Date(Date.UTC(2024, 0, 1, 10)), level: 5n },
      { time: new Date(Date.UTC(2024, 0, 1, 11)), level: 7n },
    ]);
    await update();
    const res = await t.get('/series/gauge?collapse=1d&start_date=2024-01-01&end_date=2024-01-01');
    expect(res.headers.get('x-series-source')).to.equal('raw');
    expect(await body(res)).to.deep.equal([[Date.UTC(2024, 0, 1), 7, 2]]);
  });

  it('HTTP answers over the rollup equal the oracle for every collapse', async function () {
    for (const collapse of COLLAPSE_CODES) {
      const [start, end] = [SPAN.from, SPAN.to];
      const res = await t.get(
        `/series/tick?collapse=${collapse}&limit=50000&start_date=${iso(start)}&end_date=${iso(end)}`,
      );
      expect(res.headers.get('x-series-source')).to.match(/^rollup:/);
      const [from, to] = windowOf(collapse, 50000, start, end, now);
      const diff = diffRows(
        (await body(res)) as unknown[][],
        expectedSeries(rows, TICK_MEASURES, { collapse, from, to, order: 'asc', limit: 50000, fill: 'none' }),
      );
      if (diff) expect.fail(`${collapse}: ${diff}`);
    }
  });
});

function levelOf(collapse: string): string {
  return collapse.endsWith('m') ? '1m' : collapse.endsWith('h') ? '1h' : '1d';
}

function parse(arg: unknown): number | undefined {
  return typeof arg === 'string' ? Date.parse(arg) : undefined;
}
