import { changePercent, div } from '../Decimals';
import { CandleRecord, Quote, TickerRecord, TradeRecord } from '../Records';

/** The paths of one venue's requests and how its answers map to the common records. */
export interface ExchangeAdapter {
  /** Our exchange code (lower case, no separators; the legacy TzPro codes where they exist). */
  readonly code: string;
  readonly name: string;
  readonly baseUrl: string;
  /** Quote currencies the venue lists XTZ against. */
  readonly quotes: readonly Quote[];
  /** Minimum spacing between two requests to this venue (its public rate limit, with margin). */
  readonly minIntervalMs: number;
  /** At most this many 1-minute candles per request. */
  readonly maxCandles: number;
  /** Path and query of the 24h ticker of the venue symbol. */
  tickerPath(symbol: string): string;
  /** The ticker record; `now` stands in for the time where the venue gives none. */
  parseTicker(body: unknown, now: Date): TickerRecord;
  /** Path and query of 1-minute candles from `sinceMs` on (venues without a start give the latest). */
  candlesPath(symbol: string, sinceMs: number, nowMs: number): string;
  /** Candles in ascending time, without the ones the venue flags as not closed yet. */
  parseCandles(body: unknown): CandleRecord[];
  /** Venues whose public trade list gives each trade's side: what fills the candles' buy/sell splits. */
  readonly trades?: TradeFeed;
}

/** A venue's public trades, paged forward in time. */
export interface TradeFeed {
  /** Path and query of the trades after `afterMs`. */
  path(symbol: string, afterMs: number): string;
  /** Entries an answer holds at most: a full answer was cut there, more follow. */
  readonly pageSize: number;
  /** The answer's entries in ascending time. */
  parse(body: unknown): TradeRecord[];
}

/** Ascending by time. */
export function ascending(candles: CandleRecord[]): CandleRecord[] {
  return candles.sort((a, b) => a.time - b.time);
}

type TickerFields = Pick<
  TickerRecord,
  'open' | 'high' | 'low' | 'last' | 'volume_base' | 'volume_quote' | 'timestamp'
> &
  Partial<Pick<TickerRecord, 'change' | 'vwap' | 'n_trades'>>;

/**
 * A ticker from what the venue gives; change (from open and last) and vwap (quote / base volume) are derived where it
 * gives none.
 */
export function ticker(f: TickerFields): TickerRecord {
  return {
    ...f,
    change: f.change === undefined ? changePercent(f.open, f.last) : f.change,
    vwap: f.vwap === undefined ? div(f.volume_quote, f.volume_base) : f.vwap,
    n_trades: f.n_trades ?? null,
  };
}

type CandleFields = Pick<CandleRecord, 'time' | 'open' | 'high' | 'low' | 'close' | 'vol_base' | 'vol_quote'> &
  Partial<CandleRecord>;

/**
 * A candle from what the venue gives: vwap derived from the volumes where it gives none, trade counts and buy/sell
 * splits null.
 */
export function candle(f: CandleFields): CandleRecord {
  return {
    n_trades: null,
    n_buy: null,
    n_sell: null,
    vol_buy_base: null,
    vol_buy_quote: null,
    vol_sell_base: null,
    vol_sell_quote: null,
    ...f,
    vwap: f.vwap === undefined ? div(f.vol_quote, f.vol_base) : f.vwap,
  };
}
