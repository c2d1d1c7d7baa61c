import { expectApiError } from '../support/apiErrors';
import { expect } from 'chai';
import { RouteRegistry } from '../../framework/http/RouteRegistry';
import { PluginClass } from '../../framework/plugins/Plugin';
import { pathFilter } from '../../framework/query/TableRequest';
import { COLLAPSE_CODES } from '../../framework/series/Collapse';
import { parseCsv, prng, tez } from '../support/SampleTable';
import { BACKEND } from '../support/TestDatabase';
import { startTestInstance, TestInstance } from '../support/TestInstance';
import {
  bucketAdd,
  bucketOf,
  Cell,
  diffRows,
  expectedSeries,
  Fill,
  OracleMeasure,
  OracleQuery,
  OracleRow,
  windowOf,
} from './SeriesOracle';
import { body, CLUSTER, SPAN, TICK_CATALOG, TICK_MEASURES, TickRow, tickRows, toTickWriterRow } from './TickTable';

/** The fixture plugin also mounts the tick series at a path of its own, as markets will mount OHLCV. */
class TickPlugin {
  static readonly manifest = { name: 'fixture' };
  setup() {
    return { routes: (r: RouteRegistry) => this.routes(r) };
  }
  private routes(r: RouteRegistry): void {
    r.seriesAt('/ticks/:kind/series{.:format}', 'StreamTicks', 'tick', {
      filters: (ctx, table) => [pathFilter(table, 'kind', ctx.params.kind)],
    });
  }
}
const plugins = [TickPlugin as unknown as PluginClass];
const iso = (ms: number): string => new Date(ms).toISOString();

/** The window each collapse is checked over: a few dozen to a few thousand buckets with data. */
function windowFor(collapse: string): [number, number] {
  if (collapse.endsWith('m')) return [CLUSTER.from - 30 * 60_000, CLUSTER.to + 60 * 60_000];
  if (collapse.endsWith('h')) return [Date.UTC(2024, 2, 28), Date.UTC(2024, 3, 3)];
  if (collapse === '1d') return [Date.UTC(2024, 1, 1), Date.UTC(2024, 4, 15)];
  return [Date.UTC(2023, 11, 1), Date.UTC(2025, 1, 1)];
}

describe(`series API (${BACKEND})`, function () {
  let t: TestInstance;
  let rows: TickRow[];

  async function get(path: string): Promise<{ status: number; body: unknown; source: string | null }> {
    const res = await t.get(path);
    return { status: res.status, body: await body(res), source: res.headers.get('x-series-source') };
  }

  async function check(query: string, expected: Cell[][]): Promise<string | null> {
    const res = await get(`/series/tick?${query}`);
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    const diff = diffRows(res.body as unknown[][], expected);
    if (diff) expect.fail(`${query}: ${diff}`);
    return res.source;
  }

  const oracle = (
    q: Partial<OracleQuery> & { from: number; to: number },
    measures: OracleMeasure[] = TICK_MEASURES,
    data: OracleRow[] = rows,
  ): Cell[][] => expectedSeries(data, measures, { collapse: '1m', order: 'asc', limit: 50000, fill: 'none', ...q });

  before(async function () {
    t = await startTestInstance({ catalogYaml: TICK_CATALOG, plugins, enabled: ['fixture'] });
    rows = tickRows(11, Date.now());
    await t.insert('tick', rows.map(toTickWriterRow));
  });
  after(async () => t?.close());

  describe('every collapse and aggregation equals a naive re-aggregation', function () {
    for (const collapse of COLLAPSE_CODES) {
      for (const order of ['asc', 'desc'] as const) {
        it(`collapse=${collapse} order=${order}`, async function () {
          const [start, end] = windowFor(collapse);
          const [from, to] = windowOf(collapse, 50000, start, end, Date.now());
          const expected = oracle({ collapse, order, from, to });
          expect(expected.length, 'buckets with data').to.be.greaterThan(collapse === '1y' ? 2 : 3);
          await check(
            `collapse=${collapse}&order=${order}&limit=50000&start_date=${iso(start)}&end_date=${iso(end)}`,
            expected,
          );
        });
      }
    }

    it('week, month, quarter and year buckets start on Monday and on the 1st, in UTC', async function () {
      const [start, end] = windowFor('1w');
      const firstOf = async (collapse: string): Promise<number[]> =>
        (
          (await get(`/series/tick?collapse=${collapse}&columns=count&start_date=${iso(start)}&end_date=${iso(end)}`))
            .body as number[][]
        ).map((r) => r[0]);
      for (const t0 of await firstOf('1w')) expect(new Date(t0).getUTCDay(), iso(t0)).to.equal(1);
      for (const [collapse, months] of [
        ['1M', 12],
        ['3M', 4],
        ['1y', 1],
      ] as const) {
        const got = await firstOf(collapse);
        expect(got.length).to.be.greaterThan(1);
        for (const t0 of got) {
          const d = new Date(t0);
          expect(
            d.getUTCDate() === 1 &&
              d.getUTCHours() === 0 &&
              d.getUTCMinutes() === 0 &&
              d.getUTCMonth() % (12 / months) === 0,
            `${collapse} ${iso(t0)}`,
          ).to.equal(true);
        }
      }
    });

    it('a row at 23:59:59.999 and one at 00:00:00.000 fall into different days, quarters and years', async function () {
      const res = (await get('/series/tick?collapse=1y&columns=count&start_date=2023-01-01&end_date=2025-12-31'))
        .body as number[][];
      const byYear = new Map(res.map((r) => [new Date(r[0]).getUTCFullYear(), r[1]]));
      for (const year of [2023, 2024, 2025]) {
        const n = rows.filter((r) => new Date(r.time).getUTCFullYear() === year).length;
        expect(byYear.get(year) ?? 0, String(year)).to.equal(n);
      }
      expect(byYear.get(2023)).to.be.greaterThan(0);
    });
  });

  describe('windows, limits and order', function () {
    it('no parameters: the last 500 minutes at 1m', async function () {
      for (;;) {
        const before = Date.now();
        const res = await get('/series/tick');
        const after = Date.now();
        if (bucketOf(before, '1m') !== bucketOf(after, '1m')) continue;
        const [from, to] = windowOf('1m', 500, undefined, undefined, before);
        expect(to - from).to.equal(500 * 60_000);
        const diff = diffRows(res.body as unknown[][], oracle({ from, to }));
        if (diff) expect.fail(diff);
        expect((res.body as unknown[]).length).to.be.greaterThan(100);
        break;
      }
    });

    it('only start_date: `limit` buckets from its bucket on', async function () {
      const start = Date.UTC(2024, 3, 10, 13, 45);
      await check(
        `collapse=1d&limit=30&start_date=${iso(start)}`,
        oracle({ collapse: '1d', limit: 30, from: Date.UTC(2024, 3, 10), to: Date.UTC(2024, 4, 10) }),
      );
      await check(
        `collapse=1d&limit=30&order=desc&start_date=${iso(start)}`,
        oracle({ collapse: '1d', limit: 30, order: 'desc', from: Date.UTC(2024, 3, 10), to: Date.UTC(2024, 4, 10) }),
      );
    });

    it('only end_date: `limit` buckets up to and including its bucket', async function () {
      await check(
        'collapse=1d&limit=30&end_date=2024-05-10T08:00:00Z',
        oracle({ collapse: '1d', limit: 30, from: Date.UTC(2024, 3, 11), to: Date.UTC(2024, 4, 11) }),
      );
      await check(
        'collapse=1M&limit=3&end_date=2024-05-10&order=desc',
        oracle({ collapse: '1M', limit: 3, order: 'desc', from: Date.UTC(2024, 2, 1), to: Date.UTC(2024, 5, 1) }),
      );
    });

    it('limit cuts both ends: the first buckets for asc, the last for desc', async function () {
      const [from, to] = [Date.UTC(2024, 0, 1), Date.UTC(2024, 6, 1)];
      for (const order of ['asc', 'desc'] as const) {
        const expected = oracle({ collapse: '1d', order, limit: 5, from, to });
        expect(expected).to.have.length(5);
        await check(`collapse=1d&order=${order}&limit=5&start_date=2024-01-01&end_date=2024-06-30`, expected);
      }
    });

    it('limit 0 means the default 500, huge limits are clamped to 50000', async function () {
      const start = Date.UTC(2024, 2, 31, 21);
      await check(`limit=0&start_date=${iso(start)}`, oracle({ from: start, to: start + 500 * 60_000 }));
      const all = (await get(`/series/tick?limit=99999999&start_date=${iso(start)}&columns=count`)).body as unknown[];
      expect(all.length).to.equal(oracle({ from: start, to: start + 50000 * 60_000 }).length);
    });

    it('relative and unix times are accepted', async function () {
      const start = Math.floor(Date.UTC(2024, 2, 31, 23) / 1000);
      await check(
        `start_date=${start}&end_date=${(start + 3600) * 1000}`,
        oracle({ from: start * 1000, to: (start + 3660) * 1000 }),
      );
      const res = await get('/series/tick?collapse=1h&start_date=now-3h&columns=count');
      expect(res.status).to.equal(200);
    });

    it('an empty window answers [], and intervals without data yield no row', async function () {
      expect((await get('/series/tick?start_date=2022-01-01&end_date=2022-03-01&collapse=1d')).body).to.deep.equal([]);
      const got = (
        await get(
          `/series/tick?columns=count&start_date=${iso(CLUSTER.from)}&end_date=${iso(CLUSTER.to - 1)}&limit=50000`,
        )
      ).body as number[][];
      const minutes = (CLUSTER.to - CLUSTER.from) / 60_000;
      expect(got.length).to.be.lessThan(minutes - 12);
      expect(got.every((r) => r[1] > 0)).to.equal(true);
      const times = new Set(got.map((r) => r[0]));
      expect(times.has(CLUSTER.from + 3 * 60_000)).to.equal(false);
      expect(times.has(CLUSTER.from + 65 * 60_000)).to.equal(false);
    });
  });

  describe('fill', function () {
    for (const fill of ['none', 'null', 'last', 'linear', 'zero'] as const) {
      for (const order of ['asc', 'desc'] as const) {
        it(`fill=${fill} order=${order}`, async function () {
          const [start, end] = [CLUSTER.from - 10 * 60_000, CLUSTER.to + 5 * 60_000];
          const [from, to] = windowOf('1m', 50000, start, end, 0);
          const expected = oracle({ fill, order, from, to });
          if (fill !== 'none') expect(expected).to.have.length((to - from) / 60_000);
          await check(
            `fill=${fill}&order=${order}&limit=50000&start_date=${iso(start)}&end_date=${iso(end)}`,
            expected,
          );
        });
      }
    }

    it('fill within a limit: only the first (asc) or last (desc) `limit` buckets', async function () {
      for (const fill of ['linear', 'last', 'zero'] as const) {
        for (const order of ['asc', 'desc'] as const) {
          const query = `fill=${fill}&order=${order}&limit=25&collapse=5m&start_date=${iso(CLUSTER.from - 3600_000)}&end_date=${iso(CLUSTER.to + 3600_000)}`;
          const [from, to] = windowOf('5m', 25, CLUSTER.from - 3600_000, CLUSTER.to + 3600_000, 0);
          await check(query, oracle({ collapse: '5m', fill, order, limit: 25, from, to }));
        }
      }
    });

    it('bad fill values are 400/1005', async function () {
      const res = await get('/series/tick?fill=spline');
      expect(res.status).to.equal(400);
      expect((res.body as { errors: Array<{ code: number }> }).errors[0].code).to.equal(1005);
    });
  });

  describe('filters on table columns, aggregated or not', function () {
    const [start, end] = [Date.UTC(2024, 0, 1), Date.UTC(2024, 11, 31)];
    const span = `collapse=1w&limit=50000&start_date=${iso(start)}&end_date=${iso(end)}`;
    const cases: Array<[string, (r: TickRow) => boolean]> = [
      ['kind=alpha', (r) => r.kind === 'alpha'],
      ['kind.in=alpha,gamma&flag=1', (r) => (r.kind === 'alpha' || r.kind === 'gamma') && r.flag],
      ['kind.ne=beta&qty.lt=0', (r) => r.kind !== 'beta' && r.qty !== null && r.qty < 0n],
      ['height.rg=100,700', (r) => r.height >= 100 && r.height <= 700],
      ['amount.gte=2.5', (r) => r.amount >= 2_500_000n],
      ['price.lt=-1.5', (r) => r.price.startsWith('-') && Number(r.price) < -1.5],
      ['time.lt=2024-04-01', (r) => r.time < Date.UTC(2024, 3, 1)],
    ];
    for (const [filter, keep] of cases) {
      it(filter, async function () {
        const [from, to] = windowOf('1w', 50000, start, end, 0);
        const expected = oracle({ collapse: '1w', from, to, keep: keep as (r: OracleRow) => boolean });
        expect(expected.length).to.be.greaterThan(5);
        const source = await check(`${span}&${filter}`, expected);
        expect(source).to.equal('raw');
      });
    }

    it('address filters (a column that is never aggregated)', async function () {
      const addr = rows[0].addr;
      const [from, to] = windowOf('1M', 50000, start, end, 0);
      const keep = (r: OracleRow): boolean => (r as TickRow).addr === addr;
      await check(
        `collapse=1M&start_date=${iso(start)}&end_date=${iso(end)}&addr=${addr}`,
        oracle({ collapse: '1M', from, to, keep }),
      );
    });

    it('a plugin path (RouteRegistry.seriesAt) with a path filter is served by the same engine', async function () {
      const [from, to] = windowOf('1M', 50000, start, end, 0);
      const keep = (r: OracleRow): boolean => (r as TickRow).kind === 'gamma';
      const query = `collapse=1M&start_date=${iso(start)}&end_date=${iso(end)}`;
      const res = await t.get(`/ticks/gamma/series?${query}`);
      const diff = diffRows((await body(res)) as unknown[][], oracle({ collapse: '1M', from, to, keep }));
      if (diff) expect.fail(diff);
      const csv = parseCsv(await (await t.get(`/ticks/gamma/series.csv?${query}&columns=count`)).text());
      expect(csv.slice(1).map((r) => Number(r[1]))).to.deep.equal(
        oracle({ collapse: '1M', from, to, keep }).map((r) => r[1]),
      );
      const bad = await t.get('/ticks/delta/series');
      expect(bad.status).to.equal(400);
      expect(((await body(bad)) as { errors: Array<{ code: number; scope: string }> }).errors[0]).to.include({
        code: 1301,
        scope: 'StreamTicks',
      });
    });

    it('a filter matching nothing answers []', async function () {
      expect((await get(`/series/tick?${span}&qty.gt=5000`)).body).to.deep.equal([]);
    });
  });

  describe('columns and encodings', function () {
    const [start, end] = [Date.UTC(2024, 2, 25), Date.UTC(2024, 3, 5)];
    const span = `collapse=1d&start_date=${iso(start)}&end_date=${iso(end)}`;
    const [from, to] = windowOf('1d', 500, start, end, 0);
    const pick = (names: string[]): OracleMeasure[] => names.map((n) => TICK_MEASURES.find((m) => m.name === n)!);

    it('columns= selects and orders; time is always first', async function () {
      const names = ['amount', 'count', 'price_mean'];
      await check(`${span}&columns=amount,time,count,price_mean`, oracle({ collapse: '1d', from, to }, pick(names)));
      await check(`${span}&columns=${names.join(',')}`, oracle({ collapse: '1d', from, to }, pick(names)));
      await check(`${span}&columns=time`, oracle({ collapse: '1d', from, to }, []));
    });

    it('JSON money has exactly 6 decimals, fixed decimals are strings, bools sum to counts', async function () {
      const text = await (await t.get(`/series/tick?${span}&columns=amount,price_first,flags`)).text();
      const cells = [...text.matchAll(/\[(\d+),(-?\d+\.\d{6}),"(-?\d+\.\d{4})",(\d+)\]/g)];
      const expected = oracle({ collapse: '1d', from, to }, pick(['amount', 'price_first', 'flags']));
      expect(cells).to.have.length(expected.length);
      cells.forEach((m, i) => {
        const day = rows.filter((r) => bucketOf(r.time, '1d') === Number(m[1]));
        expect(m[2]).to.equal(tez(day.reduce((s, r) => s + r.amount, 0n)));
        expect(m[3]).to.equal(expected[i][2]);
      });
    });

    it('CSV: RFC 4180 with a header, RFC3339 times, tez and decimals as text', async function () {
      const res = await t.get(`/series/tick.csv?${span}&columns=count,amount,price_max,qty_mean`);
      expect(res.headers.get('content-type')).to.match(/^text\/csv/);
      const csv = parseCsv(await res.text());
      expect(csv[0]).to.deep.equal(['time', 'count', 'amount', 'price_max', 'qty_mean']);
      const expected = oracle({ collapse: '1d', from, to }, pick(['count', 'amount', 'price_max', 'qty_mean']));
      expect(csv.length - 1).to.equal(expected.length);
      expected.forEach((e, i) => {
        const row = csv[i + 1];
        expect(row[0]).to.equal(iso(e[0] as number).replace('.000Z', 'Z'));
        expect(row[1]).to.equal(String(e[1]));
        const day = rows.filter((r) => bucketOf(r.time, '1d') === e[0]);
        expect(row[2]).to.equal(tez(day.reduce((s, r) => s + r.amount, 0n)));
        expect(row[3]).to.equal(e[3]);
        expect(Number(row[4])).to.be.closeTo((e[4] as { approx: number }).approx, 1e-9);
      });
    });

    it('CSV with fill=null leaves empty cells', async function () {
      const csv = parseCsv(
        await (
          await t.get(
            `/series/tick.csv?fill=null&columns=count&start_date=${iso(CLUSTER.from)}&end_date=${iso(CLUSTER.from + 10 * 60_000)}`,
          )
        ).text(),
      );
      const gap = csv.find((r) => r[0] === iso(CLUSTER.from + 3 * 60_000).replace('.000Z', 'Z'));
      expect(gap).to.deep.equal([iso(CLUSTER.from + 3 * 60_000).replace('.000Z', 'Z'), '']);
    });
  });

  describe('property: random windows, collapses, orders, limits, fills, columns and filters (seeded)', function () {
    const rnd = prng(424242);
    const pickInt = (lo: number, hi: number): number => lo + Math.floor(rnd() * (hi - lo + 1));
    const filters: Array<[string, (r: TickRow) => boolean]> = [
      ['kind=beta', (r) => r.kind === 'beta'],
      ['flag=0', (r) => !r.flag],
      ['qty.gte=0', (r) => r.qty !== null && r.qty >= 0n],
    ];
    for (let i = 0; i < 60; i++) {
      const collapse = COLLAPSE_CODES[pickInt(0, COLLAPSE_CODES.length - 1)];
      const anchor =
        rnd() < 0.4
          ? CLUSTER.from + pickInt(-120, 240) * 60_000
          : SPAN.from + Math.floor(rnd() * (SPAN.to - SPAN.from));
      const shape = pickInt(0, 2);
      const limit = pickInt(1, 300);
      const order = rnd() < 0.5 ? 'asc' : 'desc';
      const fill: Fill = (['none', 'none', 'null', 'last', 'linear', 'zero'] as const)[pickInt(0, 5)];
      const measures = TICK_MEASURES.filter(() => rnd() < 0.4);
      const filter = rnd() < 0.3 ? filters[pickInt(0, filters.length - 1)] : undefined;
      const end = Math.max(
        anchor,
        bucketAdd(bucketOf(anchor, collapse), pickInt(0, 120), collapse) + pickInt(0, 59_999),
      );
      const start = shape === 0 ? anchor : undefined;
      const endArg = shape === 0 || shape === 2 ? end : undefined;
      const startArg = shape === 1 ? anchor : start;
      const query = [
        `collapse=${collapse}`,
        `limit=${limit}`,
        `order=${order}`,
        `fill=${fill}`,
        ...(measures.length ? [`columns=${measures.map((m) => m.name).join(',')}`] : []),
        ...(startArg !== undefined ? [`start_date=${iso(startArg)}`] : []),
        ...(endArg !== undefined ? [`end_date=${iso(endArg)}`] : []),
        ...(filter ? [filter[0]] : []),
      ].join('&');
      it(query, async function () {
        const [from, to] = windowOf(collapse, limit, startArg, endArg, 0);
        const expected = expectedSeries(rows, measures.length ? measures : TICK_MEASURES, {
          collapse,
          from,
          to,
          order,
          limit,
          fill,
          keep: filter?.[1] as ((r: OracleRow) => boolean) | undefined,
        });
        await check(query, expected);
      });
    }
  });

  describe('errors', function () {
    const cases: Array<[string, number, number]> = [
      ['/series/tick?collapse=2d', 400, 1005],
      ['/series/tick?collapse=1', 400, 1005],
      ['/series/tick?collapse=1D', 400, 1005],
      ['/series/tick?collapse=1m&collapse=1h', 400, 1005],
      ['/series/tick?start_date=yesterday-ish', 400, 1005],
      ['/series/tick?end_date=2024-02-31', 400, 1005],
      ['/series/tick?start_date=10000-01-01', 400, 1005],
      ['/series/tick?start_date=2024-02-01&end_date=2024-01-01', 400, 1007],
      ['/series/tick?fill=spline', 400, 1005],
      ['/series/tick?limit=-1', 400, 1005],
      ['/series/tick?limit=ten', 400, 1005],
      ['/series/tick?order=up', 400, 1005],
      ['/series/tick?columns=nope', 400, 1007],
      ['/series/tick?columns=count,count', 400, 1007],
      ['/series/tick?columns=kind', 400, 1007],
      ['/series/tick?columns=count;drop%20table%20x', 400, 1007],
      ['/series/tick?kind=delta', 400, 1007],
      ['/series/tick?kind.gt=alpha', 400, 1007],
      ['/series/tick?qty.xx=1', 400, 1007],
      ['/series/tick?qty=1.5', 400, 1007],
      ['/series/tick?nope=1', 400, 1007],
      ['/series/tick?addr=tz1invalid', 400, 1007],
      ['/series/tick?cursor=5', 400, 1007],
      ['/series/tick?offset=5', 400, 1007],
      ['/series/tick?height.rg=1', 400, 1007],
      ['/series/tick.xml', 400, 1001],
      ['/series/nope', 404, 1305],
      ['/series/nope.csv', 404, 1305],
      ['/series/tick/extra', 404, 1000],
    ];
    for (const [path, status, code] of cases) {
      it(`${decodeURIComponent(path)} → ${status}/${code}`, async function () {
        const error = await expectApiError(await t.get(path), status, code, path);
        expect(error.detail).to.match(path === '/series/nope' ? /^no such series 'nope'$/ : /\w/);
        if (code !== 1000) expect(error.scope).to.equal('StreamSeries');
      });
    }
  });
});
