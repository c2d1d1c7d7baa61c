import { expect } from 'chai';
import { SeriesRollups } from '../../framework/series/SeriesRollups';
import { seededRandom } from '../../framework/util/seededRandom';
import { parseCsv } from '../support/SampleTable';
import { TestInstance } from '../support/TestInstance';
import { body } from '../series/TickTable';
import { diffRows, expectedSeries, OracleMeasure, OracleRow } from '../series/SeriesOracle';
import { startMarketsInstance } from './MarketsInstance';

const MINUTE = 60_000;
const PRICE = { fixed: 10 } as const;
const VOLUME = { fixed: 8 } as const;
const COLLAPSES = ['1m', '5m', '15m', '30m', '1h', '2h', '3h', '4h', '6h', '12h', '1d', '1w', '1M', '3M', '1y'];

/** OHLCV semantics, written down independently of tables.yaml: what each column of a bucket must be. */
const MEASURES: OracleMeasure[] = [
  { name: 'open', agg: 'first', source: 'open', kind: PRICE },
  { name: 'high', agg: 'max', source: 'high', kind: PRICE },
  { name: 'low', agg: 'min', source: 'low', kind: PRICE },
  { name: 'close', agg: 'last', source: 'close', kind: PRICE },
  { name: 'vwap', agg: 'wmean', source: 'vwap', kind: PRICE, weight: 'vol_base', weightKind: VOLUME },
  ...['n_trades', 'n_buy', 'n_sell'].map((c): OracleMeasure => ({ name: c, agg: 'sum', source: c, kind: 'int' })),
  ...['vol_base', 'vol_quote', 'vol_buy_base', 'vol_buy_quote', 'vol_sell_base', 'vol_sell_quote'].map(
    (c): OracleMeasure => ({ name: c, agg: 'sum', source: c, kind: VOLUME }),
  ),
];
const INTEGER_COLUMNS = new Set(['n_trades', 'n_buy', 'n_sell']);

const START = Date.UTC(2023, 10, 20);
const END = Date.UTC(2025, 0, 20);
const CLUSTER = Date.UTC(2024, 2, 31, 21);

/**
 * Candles of two markets: sparse over 14 months, a dense day across a quarter and a week boundary, values sometimes
 * missing.
 */
function candles(exchange: string, seed: number): OracleRow[] {
  const rnd = seededRandom(seed);
  const times = new Set<number>();
  for (let i = 0; i < 1500; i++) times.add(Math.floor((START + rnd() * (END - START)) / MINUTE) * MINUTE);
  for (let m = 0; m < 24 * 60; m++) if (rnd() < 0.7) times.add(CLUSTER + m * MINUTE);
  const dec = (lo: number, hi: number, places: number): string => (lo + rnd() * (hi - lo)).toFixed(places);
  const maybe = <T>(v: T): T | null => (rnd() < 0.15 ? null : v);
  return [...times]
    .sort((a, b) => a - b)
    .map((time, i) => {
      const [a, b] = [dec(0.3, 1.5, 6), dec(0.3, 1.5, 6)];
      const [low, high] = Number(a) < Number(b) ? [a, b] : [b, a];
      const base = maybe(dec(0, 50000, 8));
      return {
        row_id: i,
        time,
        exchange,
        pair: 'XTZ_USD',
        open: dec(Number(low), Number(high), 6),
        high,
        low,
        close: dec(Number(low), Number(high), 6),
        vwap: maybe(dec(Number(low), Number(high), 10)),
        n_trades: maybe(BigInt(Math.floor(rnd() * 300))),
        n_buy: rnd() < 0.5 ? null : BigInt(Math.floor(rnd() * 100)),
        n_sell: rnd() < 0.5 ? null : BigInt(Math.floor(rnd() * 100)),
        vol_base: base,
        vol_quote: maybe(dec(0, 40000, 8)),
        vol_buy_base: maybe(dec(0, 100, 8)),
        vol_buy_quote: null,
        vol_sell_base: maybe(dec(0, 100, 8)),
        vol_sell_quote: maybe(dec(0, 100, 8)),
      };
    });
}

describe('markets: /series/{exchange}/{market}/ohlcv', function () {
  let t: TestInstance;
  const kraken = candles('kraken', 7);
  const bitstamp = candles('bitstamp', 8);

  before(async function () {
    ({ t } = await startMarketsInstance());
    const toWriter = (r: OracleRow): Record<string, unknown> => {
      const { row_id: _id, time, ...rest } = r;
      return { ...rest, time: new Date(time) };
    };
    // Interleaved, so row ids of one market are not contiguous.
    const rows = [...kraken, ...bitstamp].sort((a, b) => a.time - b.time).map(toWriter);
    await t.insert('market_candle', rows);
    const ids = await t.app.db.reader
      .withSchema('markets')
      .from('market_candle')
      .select('row_id', 'exchange', 'time')
      .orderBy('row_id');
    const byKey = new Map(
      ids.map((r: { row_id: string; exchange: string; time: Date }) => [
        `${r.exchange}@${new Date(r.time).getTime()}`,
        Number(r.row_id),
      ]),
    );
    for (const r of [...kraken, ...bitstamp]) r.row_id = byKey.get(`${r.exchange}@${r.time}`)!;
  });
  after(async () => t?.close());

  const range = `start_date=${new Date(START).toISOString()}&end_date=${new Date(END).toISOString()}`;

  /** CSV rows as oracle cells: time in ms, empty → null, integers as numbers, decimals as exact text. */
  function cells(csv: string[][]): unknown[][] {
    const header = csv[0];
    return csv
      .slice(1)
      .map((row) =>
        row.map((v, i) => (i === 0 ? Date.parse(v) : v === '' ? null : INTEGER_COLUMNS.has(header[i]) ? Number(v) : v)),
      );
  }

  async function expectCollapse(collapse: string, source: RegExp): Promise<void> {
    const res = await t.get(`/series/kraken/XTZ_USD/ohlcv.csv?collapse=${collapse}&limit=50000&${range}`);
    const text = await res.text();
    expect(res.status, text.slice(0, 300)).to.equal(200);
    expect(res.headers.get('x-series-source')).to.match(source);
    const csv = parseCsv(text);
    expect(csv[0]).to.deep.equal(['time', ...MEASURES.map((m) => m.name)]);
    const [from, to] = [bucket(START, collapse), END + 366 * 86_400_000];
    const expected = expectedSeries(kraken, MEASURES, { collapse, from, to, order: 'asc', limit: 50000, fill: 'none' });
    expect(expected.length).to.be.greaterThan(1);
    const diff = diffRows(cells(csv), expected);
    if (diff) expect.fail(`${collapse}: ${diff}`);
  }

  for (const collapse of COLLAPSES) {
    it(`collapse ${collapse} equals a naive re-aggregation of the 1m candles (exact decimals, CSV)`, async function () {
      await expectCollapse(collapse, /^raw$/);
    });
  }

  describe('with rollups (kept per exchange and pair)', function () {
    before(async function () {
      const rollups = t.app.container.resolve(SeriesRollups);
      await t.app.db.writer.transaction((trx) => rollups.update(trx));
      // Candles written after the update are read from the raw tail above the watermark.
      const late = candles('kraken', 9)
        .filter((r) => !kraken.some((k) => k.time === r.time))
        .slice(0, 40);
      await t.insert(
        'market_candle',
        late.map(({ row_id: _id, time, ...rest }) => ({ ...rest, time: new Date(time) })),
      );
      const ids = await t.app.db.reader
        .withSchema('markets')
        .from('market_candle')
        .where({ exchange: 'kraken' })
        .select('row_id', 'time');
      const byTime = new Map(
        ids.map((r: { row_id: string; time: Date }) => [new Date(r.time).getTime(), Number(r.row_id)]),
      );
      for (const r of late) kraken.push({ ...r, row_id: byTime.get(r.time)! });
    });

    for (const collapse of COLLAPSES) {
      it(`collapse ${collapse} from the rollup equals the naive re-aggregation`, async function () {
        const level = ['1m', '5m', '15m', '30m'].includes(collapse)
          ? '1m'
          : ['1h', '2h', '3h', '4h', '6h', '12h'].includes(collapse)
            ? '1h'
            : '1d';
        await expectCollapse(collapse, new RegExp(`^rollup:${level}$`));
      });
    }
  });

  it('JSON rows decode as the SDK expects: 15 columns, time in ms, numbers (never strings) or null', async function () {
    const rows = (await body(
      await t.get(`/series/kraken/XTZ_USD/ohlcv?collapse=1h&limit=5&start_date=${new Date(CLUSTER).toISOString()}`),
    )) as unknown[][];
    expect(rows).to.have.length(5);
    for (const row of rows) {
      expect(row).to.have.length(15);
      for (const v of row) expect(v === null || typeof v === 'number', JSON.stringify(row)).to.equal(true);
    }
    expect(rows[0][0]).to.equal(CLUSTER);
  });

  it('fill=last gives every bucket of the window, gaps carrying the previous bucket', async function () {
    const q = `collapse=1m&limit=240&fill=last&start_date=${new Date(CLUSTER).toISOString()}`;
    const csv = parseCsv(await (await t.get(`/series/kraken/XTZ_USD/ohlcv.csv?${q}`)).text());
    const expected = expectedSeries(kraken, MEASURES, {
      collapse: '1m',
      from: CLUSTER,
      to: CLUSTER + 240 * MINUTE,
      order: 'asc',
      limit: 240,
      fill: 'last',
    });
    expect(csv.length - 1).to.equal(240);
    const diff = diffRows(cells(csv), expected);
    if (diff) expect.fail(diff);
  });

  it('unknown exchange or market: 404 JSON; lower-case market codes are accepted', async function () {
    for (const path of ['/series/nowhere/XTZ_USD/ohlcv', '/series/kraken/XTZ_JPY/ohlcv']) {
      const res = await t.get(path);
      expect(res.status).to.equal(404);
      expect(((await res.json()) as { errors: Array<{ code: number }> }).errors[0].code).to.equal(1305);
    }
    expect((await t.get(`/series/kraken/xtz_usd/ohlcv?collapse=1d&${range}`)).status).to.equal(200);
  });
});

/** Bucket start for the windows used here (only the start matters: the end is far past the data). */
function bucket(ms: number, collapse: string): number {
  const d = new Date(ms);
  if (collapse === '1y') return Date.UTC(d.getUTCFullYear(), 0, 1);
  if (collapse === '3M') return Date.UTC(d.getUTCFullYear(), Math.floor(d.getUTCMonth() / 3) * 3, 1);
  if (collapse === '1M') return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1);
  if (collapse === '1w') return ms - ((d.getUTCDay() + 6) % 7) * 86_400_000;
  return ms;
}
