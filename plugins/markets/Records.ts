/**
 * The common records every venue's answers are mapped to. Prices and volumes are decimal strings
 * (exact, as the venue sent them or computed with decimal arithmetic); null where a venue gives no
 * value, never invented.
 */
export type Decimal = string;

/** A market of an exchange: always XTZ against a quote currency. */
export interface MarketId {
  readonly exchange: string;
  /** `{BASE}_{QUOTE}`, e.g. `XTZ_USD`. */
  readonly pair: string;
  readonly base: string;
  readonly quote: string;
}

export interface TickerRecord {
  open: Decimal | null;
  high: Decimal | null;
  low: Decimal | null;
  last: Decimal;
  /** 24h change in percent. */
  change: Decimal | null;
  vwap: Decimal | null;
  n_trades: bigint | null;
  volume_base: Decimal | null;
  volume_quote: Decimal | null;
  timestamp: Date;
}

export interface CandleRecord {
  /** Start of the minute, unix ms. */
  time: number;
  open: Decimal;
  high: Decimal;
  low: Decimal;
  close: Decimal;
  vwap: Decimal | null;
  n_trades: bigint | null;
  n_buy: bigint | null;
  n_sell: bigint | null;
  vol_base: Decimal | null;
  vol_quote: Decimal | null;
  vol_buy_base: Decimal | null;
  vol_buy_quote: Decimal | null;
  vol_sell_base: Decimal | null;
  vol_sell_quote: Decimal | null;
}

/**
 * One entry of a venue's public trade list; `takerSide` is the side of the order that took liquidity.
 * `count` is how many trades it stands for: 1, or more where the venue aggregates the fills of one
 * taker order at one price and time (Binance's aggTrades).
 */
export interface TradeRecord {
  /** Unix ms. */
  time: number;
  price: Decimal;
  volume: Decimal;
  takerSide: 'buy' | 'sell';
  count: bigint;
}

export const QUOTES = ['USD', 'EUR', 'USDT', 'USDC', 'BTC', 'ETH'] as const;
export type Quote = (typeof QUOTES)[number];

export function marketId(exchange: string, quote: Quote): MarketId {
  return { exchange, pair: `XTZ_${quote}`, base: 'XTZ', quote };
}
