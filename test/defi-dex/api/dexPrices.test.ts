import { expect } from 'chai';
import { BACKEND } from '../../support/TestDatabase';
import type { TestInstance } from '../../support/TestInstance';
import type { DexTradeRow } from '../../../plugins/defi-dex/tables.generated';
import { DexFixture, POOL1, POOL2, POOL3 } from '../support/DexFixture';
import { cut, Json, json, q18, rfc, whole } from '../support/DexOracle';
import { startDexInstance } from './dexSetup';

const E18 = 10n ** 18n;
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const scaled = (text: string): bigint => {
  const [i, f = ''] = text.split('.');
  return BigInt(i) * E18 + BigInt(f.padEnd(18, '0').slice(0, 18));
};
const ms = (tr: DexTradeRow): number => (tr.time as Date).getTime();
const dayStart = (t: number): number => t - (t % DAY);
/** ISO weeks: Monday 00:00 UTC. */
const weekStart = (t: number): number => dayStart(t) - ((new Date(t).getUTCDay() + 6) % 7) * DAY;
const monthAgo = (t: number, n = 1): number => {
  const d = new Date(t);
  return Date.UTC(
    d.getUTCFullYear(),
    d.getUTCMonth() - n,
    d.getUTCDate(),
    d.getUTCHours(),
    d.getUTCMinutes(),
    d.getUTCSeconds(),
    d.getUTCMilliseconds(),
  );
};

interface Group {
  start: number;
  trades: DexTradeRow[];
}

function groups(trades: readonly DexTradeRow[], start: (t: number) => number): Group[] {
  const out: Group[] = [];
  for (const tr of trades) {
    const s = start(ms(tr));
    if (out.at(-1)?.start !== s) out.push({ start: s, trades: [] });
    out.at(-1)!.trades.push(tr);
  }
  return out;
}

const sum = (list: readonly DexTradeRow[], k: 'base_volume' | 'quote_volume') =>
  list.reduce((s, t) => s + BigInt(t[k]), 0n);
const maxBy = (list: readonly DexTradeRow[], pick: (a: bigint, b: bigint) => boolean) =>
  list.map((t) => t.price_net as string).reduce((a, b) => (pick(scaled(b), scaled(a)) ? b : a));

/** POOL1: base tez (6 decimals), quote TKX (8). */
function candle(g: Group, end: number): unknown[] {
  const buys = g.trades.filter((t) => t.side === 'buy');
  return [
    rfc(g.start),
    rfc(end),
    g.trades.length,
    buys.length,
    g.trades[0].price_net,
    maxBy(g.trades, (a, b) => a > b),
    maxBy(g.trades, (a, b) => a < b),
    g.trades.at(-1)!.price_net,
    q18(sum(g.trades, 'quote_volume') * 10n ** 6n, sum(g.trades, 'base_volume') * 10n ** 8n),
    whole(sum(g.trades, 'base_volume'), 6),
    whole(sum(g.trades, 'quote_volume'), 8),
    whole(sum(buys, 'base_volume'), 6),
    whole(sum(buys, 'quote_volume'), 8),
  ];
}

describe(`DEX API: tickers, candles and price history (${BACKEND})`, function () {
  this.timeout(300_000);
  let t: TestInstance;
  let f: DexFixture;
  let pool1: DexTradeRow[];

  before(async () => {
    ({ t, f } = await startDexInstance());
    pool1 = f.trades.filter((tr) => tr.pool === POOL1);
  });
  after(() => t?.close());

  it('a pool ticker covers the 24 hours before now: open, high, low, last, volumes, average, change', async () => {
    const tk = await json(t, `/v1/dex/${POOL1}/ticker`);
    const now = Date.parse(tk.close_time);
    expect(now).to.be.within(Math.floor(f.now / 1000) * 1000, f.now + 10 * 60_000);
    expect(tk.open_time).to.equal(rfc(now - DAY));
    const window = pool1.filter((tr) => ms(tr) >= now - DAY);
    expect(window.length).to.be.greaterThan(3);
    const last = pool1.at(-1)!;
    const [open, lastPrice] = [scaled(window[0].price_net as string), scaled(last.price_net as string)];
    const pool = f.pools.find((p) => p.pool === POOL1)!;
    expect(tk).to.deep.include({
      pool: POOL1,
      pair: 'XTZ/TKX',
      entity: 'quipu_v1',
      num_trades: window.length,
      open_price: window[0].price_net,
      high_price: maxBy(window, (a, b) => a > b),
      low_price: maxBy(window, (a, b) => a < b),
      last_price: last.price_net,
      last_qty: whole(BigInt(last.quote_volume), 8),
      last_trade_time: rfc(ms(last)),
      base_volume: whole(sum(window, 'base_volume'), 6),
      quote_volume: whole(sum(window, 'quote_volume'), 8),
      weighted_avg_price: q18(sum(window, 'quote_volume') * 10n ** 6n, sum(window, 'base_volume') * 10n ** 8n),
      price_change: q18(lastPrice - open, E18),
      price_change_bps: cut(q18((lastPrice - open) * 10_000n, open), 2),
      ask_price: q18(BigInt(pool.supply_b) * 10n ** 6n, BigInt(pool.supply_a) * 10n ** 8n),
      price_usd: '2.000000000000000000',
    });
  });

  it('/v1/dex/tickers has one ticker per pool; a pool without trades shows zeros', async () => {
    const list = (await json(t, '/v1/dex/tickers')) as Json[];
    expect(list.map((x) => x.pool)).to.deep.equal([POOL1, POOL2, POOL3]);
    expect(list[2]).to.include({
      num_trades: 0,
      last_price: '0.000000000000000000',
      open_price: '0.000000000000000000',
      last_trade_time: '0001-01-01T00:00:00Z',
      base_volume: '0',
      price_usd: null,
      liquidity_usd: null,
    });
    expect(((await json(t, '/v1/dex/tickers?entity=quipu_v2')) as Json[]).map((x) => x.pool)).to.deep.equal([
      POOL2,
      POOL3,
    ]);
    expect(list[1].num_trades).to.equal(
      f.trades.filter((tr) => tr.pool === POOL2 && ms(tr) >= Date.parse(list[1].open_time)).length,
    );
    // `pool` is the pool's address as the SDK's PoolAddress reads it (contract_pairId), `id` its row id.
    for (const tk of list) {
      const pool = await json(t, `/v1/dex/${tk.pool}`);
      expect(tk.pool).to.equal(`${pool.contract}_${pool.pair_id}`);
      expect(tk.id, tk.pool).to.equal(pool.id);
    }
  });

  it('candles: 13 elements per bucket, daily over the last month by default', async () => {
    const now = Date.now();
    const from = dayStart(monthAgo(now));
    const want = groups(
      pool1.filter((tr) => ms(tr) >= from),
      dayStart,
    ).map((g) => candle(g, g.start + DAY));
    expect(want.length).to.be.greaterThan(10);
    expect(await json(t, `/v1/dex/${POOL1}/candles`)).to.deep.equal(want);
  });

  it('candles by hour, week and month, with range and limit', async () => {
    const now = Date.now();
    const hourly = groups(
      pool1.filter((tr) => ms(tr) >= now - DAY - (now % HOUR)),
      (x) => x - (x % HOUR),
    ).map((g) => candle(g, g.start + HOUR));
    expect(await json(t, `/v1/dex/${POOL1}/candles?interval=h&range=24h`)).to.deep.equal(hourly);
    const weekly = groups(
      pool1.filter((tr) => ms(tr) >= weekStart(now - 21 * DAY)),
      weekStart,
    ).map((g) => candle(g, g.start + 7 * DAY));
    expect(await json(t, `/v1/dex/${POOL1}/candles?interval=w&range=3w`)).to.deep.equal(weekly);
    const monthStart = (x: number) => Date.UTC(new Date(x).getUTCFullYear(), new Date(x).getUTCMonth(), 1);
    const monthly = groups(
      pool1.filter((tr) => ms(tr) >= monthStart(monthAgo(now, 2))),
      monthStart,
    ).map((g) => candle(g, Date.UTC(new Date(g.start).getUTCFullYear(), new Date(g.start).getUTCMonth() + 1, 1)));
    expect(await json(t, `/v1/dex/${POOL1}/candles?interval=M&range=2M`)).to.deep.equal(monthly);
    // limit: the latest 3 daily buckets (today and the two days before).
    const recent = groups(
      pool1.filter((tr) => ms(tr) >= dayStart(now) - 2 * DAY),
      dayStart,
    ).map((g) => candle(g, g.start + DAY));
    expect(await json(t, `/v1/dex/${POOL1}/candles?limit=3`)).to.deep.equal(recent);
    expect(await json(t, `/v1/dex/${POOL1}/candles?limit=0`)).to.deep.equal([]);
    expect(await json(t, `/v1/dex/${POOL3}/candles`)).to.deep.equal([]);
  });

  it('price history: series of the selected fields per bucket, gaps filled as asked', async () => {
    const now = Date.now();
    const from = dayStart(now - 7 * DAY);
    const slots = Array.from({ length: (dayStart(now) - from) / DAY + 1 }, (_, i) => from + i * DAY);
    const byDay = new Map(
      groups(
        pool1.filter((tr) => ms(tr) >= from),
        dayStart,
      ).map((g) => [g.start, g]),
    );
    const seed = pool1.filter((tr) => ms(tr) < from).at(-1)!;
    expect(byDay.size).to.be.within(2, slots.length - 1); // some days have trades, some do not
    const fields = ['close', 'vwap', 'vol_base'] as const;
    const valuesOf = (g: Group): Record<string, bigint> => {
      const c = candle(g, 0) as string[];
      return { close: scaled(c[7]), vwap: scaled(c[8]), vol_base: scaled(c[9]) };
    };
    const six = (v: bigint) => cut(q18(v, E18), 6);
    const expectFill = (fill: string): unknown[][] => {
      const rows: unknown[][] = [];
      let prev: { start: number; v: Record<string, bigint> } = {
        start: dayStart(ms(seed)),
        v: { close: scaled(seed.price_net as string), vwap: scaled(seed.price_net as string), vol_base: 0n },
      };
      slots.forEach((s) => {
        const g = byDay.get(s);
        if (g) {
          prev = { start: s, v: valuesOf(g) };
          rows.push([rfc(s), ...fields.map((k) => six(prev.v[k]))]);
          return;
        }
        const nextStart = slots.find((x) => x > s && byDay.has(x));
        const next = nextStart === undefined ? undefined : { start: nextStart, v: valuesOf(byDay.get(nextStart)!) };
        if (fill === 'none') return;
        rows.push([
          rfc(s),
          ...fields.map((k) => {
            if (fill === 'null') return null;
            if (fill === 'zero' || k === 'vol_base') return '0.000000';
            if (fill === 'last' || !next) return six(prev.v.close);
            return six(
              prev.v[k] + ((next.v[k] - prev.v[k]) * BigInt(s - prev.start)) / BigInt(next.start - prev.start),
            );
          }),
        ]);
      });
      return rows;
    };
    // The spec sample's layout: `values` holds one array per column (times, then each field's values).
    const byColumn = (rows: unknown[][], n: number): unknown[][] =>
      Array.from({ length: n }, (_, i) => rows.map((r) => r[i]));
    for (const fill of ['none', 'null', 'zero', 'last', 'linear']) {
      const body = await json(t, `/v1/dex/${POOL1}/prices?range=7d&interval=d&select=close,vwap,vol_base&fill=${fill}`);
      const columns = ['time', 'close', 'vwap', 'vol_base'];
      expect(body, fill).to.deep.equal({ series: [{ name: POOL1, columns, values: byColumn(expectFill(fill), 4) }] });
    }
    const plain = await json(t, `/v1/dex/${POOL1}/prices?range=7d`);
    expect(plain.series[0].columns).to.deep.equal(['time', 'price']);
    expect(plain.series[0].values).to.deep.equal(byColumn(expectFill('none'), 2));
    expect((await json(t, `/v1/dex/${POOL2}/prices?limit=0`)).series[0].values).to.deep.equal([[], []]);
  });

  it('answers 400 for bad range, interval, limit, select, fill and unknown parameters', async () => {
    for (const q of [
      'range=abc',
      'range=0d',
      'range=5x',
      'interval=2d',
      'interval=x',
      'limit=-1',
      'limit=abc',
      'nosuch=1',
      'select=close',
      'fill=last',
    ]) {
      const candles = await t.get(`/v1/dex/${POOL1}/candles?${q}`);
      const isPriceOnly = q.startsWith('select') || q.startsWith('fill');
      expect(candles.status, `candles ${q}`).to.equal(400);
      expect(((await candles.json()) as Json).errors).to.have.length(1);
      if (isPriceOnly) continue;
      expect((await t.get(`/v1/dex/${POOL1}/prices?${q}`)).status, `prices ${q}`).to.equal(400);
    }
    for (const q of ['select=close,nope', 'select=close,close', 'fill=sometimes'])
      expect((await t.get(`/v1/dex/${POOL1}/prices?${q}`)).status, q).to.equal(400);
  });

  it('extreme but valid windows answer 200 (bounded by limit, never before the unix epoch)', async () => {
    for (const q of [
      'interval=y&range=9999y&limit=10000',
      'interval=M&range=9999y&limit=10000',
      'interval=m&range=9999y&limit=10000',
      'interval=w&range=9999w&limit=99999',
    ]) {
      for (const kind of ['candles', 'prices']) {
        const res = await t.get(`/v1/dex/${POOL1}/${kind}?${q}${kind === 'prices' ? '&fill=linear' : ''}`);
        expect(res.status, `${kind}?${q}`).to.equal(200);
      }
    }
    const yearly = await json(t, `/v1/dex/${POOL1}/prices?interval=y&range=9999y&limit=10000&fill=null`);
    const [times] = yearly.series[0].values as unknown[][];
    expect(times[0]).to.equal('1970-01-01T00:00:00Z');
    expect(times.length).to.equal(new Date().getUTCFullYear() - 1969);
  });
});
