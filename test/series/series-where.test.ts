// Why: a series may aggregate only some rows of its table (`where`, the DEX's priced trades), read a
// span of any bounds or the latest row (the DEX tickers), and fill gaps by rules other than the
// spec's (OHLC levels repeat the previous close, volumes are 0): the same engine, rollups and filling
// serve them, checked here against a naive aggregation of the kept rows.
import { expect } from 'chai';
import { parseCatalog } from '../../framework/catalog/CatalogLoader';
import { Collapse } from '../../framework/series/Collapse';
import { compileSeries } from '../../framework/series/CompiledSeries';
import { fillGaps, GapRule } from '../../framework/series/SeriesFill';
import { SeriesQueryEngine, SeriesSource } from '../../framework/series/SeriesQueryEngine';
import { parseSeriesRequest } from '../../framework/series/SeriesRequest';
import { definitionHash, SeriesRollups } from '../../framework/series/SeriesRollups';
import { pathFilter } from '../../framework/query/TableRequest';
import { BACKEND } from '../support/TestDatabase';
import { manifestPlugin, startTestInstance, TestInstance } from '../support/TestInstance';
import { diffRows, expectedSeries, OracleRow, windowOf } from './SeriesOracle';
import { body, TICK_CATALOG, TICK_MEASURES, TickRow, tickRows, toTickWriterRow } from './TickTable';

/** The tick series again, over the rows with a positive qty and a kind other than gamma, kept per kind. */
const KEPT_CATALOG = `${TICK_CATALOG}
      kept:
        table: tick
        partition: [kind]
        where: { qty.gt: 0, kind.ne: gamma }
        columns:
${TICK_MEASURES.map(
  (m) => `          - { name: ${m.name}, agg: ${m.agg}${m.source ? `, source: ${m.source}` : ''} }`,
).join('\n')}
`;
const kept = (r: OracleRow): boolean =>
  (r as TickRow).qty !== null && (r as TickRow).qty! > 0n && (r as TickRow).kind !== 'gamma';

describe(`series with row conditions, spans and gap rules (${BACKEND})`, function () {
  let t: TestInstance;
  let rows: TickRow[];
  let engine: SeriesQueryEngine;
  const now = Date.now();
  const series = () => compileSeries(t.app.catalog.series.get('kept')!);

  before(async function () {
    t = await startTestInstance({
      catalogYaml: KEPT_CATALOG,
      plugins: [manifestPlugin('fixture')],
      enabled: ['fixture'],
    });
    engine = t.app.container.resolve(SeriesQueryEngine);
    rows = tickRows(11, now);
    await t.insert('tick', rows.map(toTickWriterRow));
    const stored = (await t.app.db.writer.raw('select row_id::int as id from fixture.tick order by row_id'))
      .rows as Array<{ id: number }>;
    rows.forEach((r, i) => (r.row_id = stored[i].id));
    const rollups = t.app.container.resolve(SeriesRollups);
    await t.app.db.writer.transaction((trx) => rollups.update(trx));
  });
  after(async () => t?.close());

  it('aggregates only the rows its conditions keep, raw and rollup alike, with partition filters', async function () {
    for (const [collapse, kind] of [
      ['1h', undefined],
      ['1d', 'alpha'],
      ['1M', undefined],
      ['1w', 'beta'],
      ['15m', undefined],
    ] as const) {
      const args = {
        collapse,
        limit: '50000',
        start_date: '2023-12-01',
        end_date: '2025-02-01',
        ...(kind ? { kind } : {}),
      };
      const run = (source: SeriesSource) =>
        engine.query(series(), parseSeriesRequest(series(), args, new Date(now)), 'compact', source);
      const [raw, rolled] = [await run('raw'), await run('rollup')];
      expect(rolled.rows, collapse).to.deep.equal(raw.rows);
      const res = await t.get(`/series/kept?${new URLSearchParams(args).toString()}`);
      expect(res.headers.get('x-series-source'), collapse).to.match(/^rollup:/);
      const [from, to] = windowOf(collapse, 50000, Date.parse(args.start_date), Date.parse(args.end_date), now);
      const keep = (r: OracleRow) => kept(r) && (kind === undefined || (r as TickRow).kind === kind);
      const expected = expectedSeries(rows, TICK_MEASURES, {
        collapse,
        from,
        to,
        order: 'asc',
        limit: 50000,
        fill: 'none',
        keep,
      });
      expect(expected.length, collapse).to.be.greaterThan(3);
      const diff = diffRows((await body(res)) as unknown[][], expected);
      if (diff) expect.fail(`${collapse}: ${diff}`);
    }
  });

  it('the conditions are part of the rollup definition: changing them rebuilds the rollup', function () {
    const other = parseCatalog(KEPT_CATALOG.replace('qty.gt: 0', 'qty.gt: 1')).series.get('kept')!;
    expect(definitionHash(compileSeries(other), '1h')).not.to.equal(definitionHash(series(), '1h'));
  });

  it('a span of any bounds is one bucket of the kept rows; so is the latest kept row before a time', async function () {
    const measures = ['count', 'qty_sum', 'qty_first', 'qty_last', 'qty_min', 'qty_max'].map((n) =>
      series().measure(n)!,
    );
    const inRange = rows.filter(
      (r) => kept(r) && r.time >= Date.parse('2024-03-31T22:17:13.250Z') && r.time < Date.parse('2024-04-01T00:41:07Z'),
    );
    const byKey = [...inRange].sort((a, b) => a.time - b.time || a.row_id - b.row_id);
    const qty = inRange.map((r) => r.qty!);
    const span = await engine.total(
      series(),
      { measures, filters: [] },
      Date.parse('2024-03-31T22:17:13.250Z'),
      Date.parse('2024-04-01T00:41:07Z'),
      'compact',
    );
    expect(inRange.length).to.be.greaterThan(20);
    expect(span).to.deep.equal([
      String(Date.parse('2024-03-31T22:17:13.250Z')),
      String(inRange.length),
      String(qty.reduce((a, b) => a + b, 0n)),
      String(byKey[0].qty),
      String(byKey.at(-1)!.qty),
      String(qty.reduce((a, b) => (b < a ? b : a))),
      String(qty.reduce((a, b) => (b > a ? b : a))),
    ]);
    expect(
      await engine.total(
        series(),
        { measures, filters: [] },
        Date.parse('1990-01-01'),
        Date.parse('1990-02-01'),
        'compact',
      ),
    ).to.equal(undefined);
    const before = Date.parse('2024-04-01T00:00:00Z');
    const alpha = pathFilter(t.app.catalog.require('tick'), 'kind', 'alpha');
    const last = rows
      .filter((r) => kept(r) && r.kind === 'alpha' && r.time < before)
      .sort((a, b) => b.time - a.time || b.row_id - a.row_id)[0];
    const latest = await engine.latest(series(), { measures, filters: [alpha] }, before, 'compact');
    expect(latest).to.deep.equal([
      String(last.time),
      '1',
      String(last.qty),
      String(last.qty),
      String(last.qty),
      String(last.qty),
      String(last.qty),
    ]);
    expect(await engine.latest(series(), { measures, filters: [] }, Date.parse('1990-01-01'), 'compact')).to.equal(
      undefined,
    );
  });

  it('gap rules: flows 0, levels carry a column, linear may truncate; a row before the window leads', function () {
    const collapse = Collapse.of('1h');
    const h = (n: number) => String(Date.UTC(2024, 0, 1, n));
    // columns: a level (its own linear, carrying column 2 under last), a close, a flow
    const rules: GapRule[] = [
      { kind: 'decimal', scale: 2, carry: 2, truncate: true },
      { kind: 'decimal', scale: 2 },
      { kind: 'integer', scale: 0, flow: true },
    ];
    const data = [
      [h(3), '1.00', '2.00', '7'],
      [h(6), '2.00', '4.00', '9'],
    ];
    const before = [h(0), '0.50', '0.50', '0'];
    const shape = (fill: 'last' | 'linear' | 'zero' | 'null') => ({
      collapse,
      window: { from: Number(h(2)), to: Number(h(8)) },
      order: 'asc' as const,
      limit: 100,
      fill,
    });
    expect(fillGaps(data, shape('last'), rules, before)).to.deep.equal([
      [h(2), '0.50', '0.50', '0'],
      data[0],
      [h(4), '2.00', '2.00', '0'],
      [h(5), '2.00', '2.00', '0'],
      data[1],
      [h(7), '4.00', '4.00', '0'],
    ]);
    // (2.00 − 1.00)·1/3 = 0.333… truncated to 1.33 for the level, rounded for the close: (4 − 2)·2/3 = 1.333… → 3.33
    expect(fillGaps(data, shape('linear'), rules, before)).to.deep.equal([
      [h(2), '0.83', '1.50', '0'],
      data[0],
      [h(4), '1.33', '2.67', '0'],
      [h(5), '1.66', '3.33', '0'],
      data[1],
      [h(7), '4.00', '4.00', '0'],
    ]);
    expect(fillGaps(data, shape('zero'), rules)[0]).to.deep.equal([h(2), '0.00', '0.00', '0']);
    expect(fillGaps(data, shape('null'), rules, before)[0]).to.deep.equal([h(2), null, null, null]);
    expect(fillGaps(data, shape('last'), rules)[0]).to.deep.equal([h(2), null, null, '0']);
  });

  it('a condition on an unknown column, with an operator its type lacks or a bad value stops the catalog', function () {
    for (const [where, message] of [
      ['nope.gt: 0', "no stored, non-sparse column 'nope'"],
      ['kind.gt: alpha', "no operator 'gt'"],
      ['qty.gt: abc', "'abc' is not"],
    ]) {
      expect(() => parseCatalog(KEPT_CATALOG.replace('qty.gt: 0, kind.ne: gamma', where)), where).to.throw(message);
    }
  });
});
