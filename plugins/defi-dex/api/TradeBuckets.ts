import type { Collapse } from '../../../framework';
import { scaled } from './Decimal';
import type { DexTable, TextRow } from './DexTable';

/** One trade as price history needs it: time, side, raw volumes and the price paid (10^18-scaled). */
export interface TradePoint {
  readonly time: number;
  readonly buy: boolean;
  readonly base: bigint;
  readonly quote: bigint;
  readonly price: bigint;
}

/** Trades of one bucket: counts, OHLC of price_net, raw volumes (all and buys only). */
export interface Bucket {
  readonly start: number;
  readonly end: number;
  n: number;
  buys: number;
  open: bigint;
  high: bigint;
  low: bigint;
  close: bigint;
  base: bigint;
  quote: bigint;
  buyBase: bigint;
  buyQuote: bigint;
}

function point(r: TextRow): TradePoint {
  return { time: Date.parse(r.time!), buy: r.side === 'buy', base: BigInt(r.base_volume!), quote: BigInt(r.quote_volume!), price: scaled(r.price_net!) };
}

/**
 * A pool's trades in time order (then row order), for tickers, candles and price history. Dust trades
 * where one side rounded to zero have no price (0 or unbounded) and are left out.
 */
export class TradeReader {
  constructor(private readonly trades: DexTable) {}

  private priced(pool: string) {
    return this.trades.query().where('pool', pool).where('base_volume', '>', 0).where('quote_volume', '>', 0);
  }

  /** Trades with from <= time < to. */
  async between(pool: string, from: number, to: number): Promise<TradePoint[]> {
    const q = this.priced(pool).whereRaw('"time" >= ?::timestamptz and "time" < ?::timestamptz', [iso(from), iso(to)]);
    return (await this.trades.read(q.orderBy([{ column: 'time' }, { column: 'row_id' }]))).map(point);
  }

  /** The last trade before `t`, if any. */
  async lastBefore(pool: string, t: number): Promise<TradePoint | undefined> {
    const q = this.priced(pool).whereRaw('"time" < ?::timestamptz', [iso(t)]);
    const rows = await this.trades.read(q.orderBy([{ column: 'time', order: 'desc' }, { column: 'row_id', order: 'desc' }]).limit(1));
    return rows.length ? point(rows[0]) : undefined;
  }
}

function iso(ms: number): string {
  return new Date(ms).toISOString();
}

/** Trades (in time order) grouped into the collapse's buckets; buckets without trades are left out. */
export function bucketTrades(points: readonly TradePoint[], collapse: Collapse): Bucket[] {
  const out: Bucket[] = [];
  for (const p of points) {
    const start = collapse.truncate(p.time);
    let b = out[out.length - 1];
    if (!b || b.start !== start) {
      b = { start, end: collapse.add(start, 1), n: 0, buys: 0, open: p.price, high: p.price, low: p.price, close: p.price, base: 0n, quote: 0n, buyBase: 0n, buyQuote: 0n };
      out.push(b);
    }
    b.n++;
    if (p.price > b.high) b.high = p.price;
    if (p.price < b.low) b.low = p.price;
    b.close = p.price;
    b.base += p.base;
    b.quote += p.quote;
    if (p.buy) {
      b.buys++;
      b.buyBase += p.base;
      b.buyQuote += p.quote;
    }
  }
  return out;
}
