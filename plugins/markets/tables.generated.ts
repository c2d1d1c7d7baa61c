// Generated from tables.yaml by `npm run gen`: do not edit
// (test/framework/generated.test.ts checks it is current).
import { tableHandle } from '../../framework';

/** the latest 24h ticker of each market of each exchange (current state, not chain data) */
export type MarketTickerRow = {
  /** unique row id (local to this table and instance) */
  row_id?: bigint | number;
  /** exchange code (kraken, coinbasepro, binance, …) */
  exchange: string;
  /** market code {BASE}_{QUOTE}, e.g. XTZ_USD */
  pair: string;
  /** base currency, always XTZ */
  base: string;
  /** quote currency (USD, EUR, USDT, USDC, BTC, ETH) */
  quote: string;
  /** price 24h ago (or at the venue's day start, see docs/markets.md), in quote */
  open?: string | number | null;
  /** 24h high */
  high?: string | number | null;
  /** 24h low */
  low?: string | number | null;
  /** last traded price */
  last: string | number;
  /** 24h change in percent */
  change?: string | number | null;
  /** 24h volume-weighted average price */
  vwap?: string | number | null;
  /** 24h trade count */
  n_trades?: bigint | number | null;
  /** 24h volume in base (XTZ) */
  volume_base?: string | number | null;
  /** 24h volume in quote */
  volume_quote?: string | number | null;
  /** time of the ticker (the venue's, or when it was fetched) */
  timestamp: Date | number | string;
};

/** A market_ticker row as read (CatalogRows): values as explorer objects show them. */
export type MarketTickerRead = {
  row_id: number | bigint;
  exchange: string;
  pair: string;
  base: string;
  quote: string;
  open: number | null;
  high: number | null;
  low: number | null;
  last: number;
  change: number | null;
  vwap: number | null;
  n_trades: number | bigint | null;
  volume_base: number | null;
  volume_quote: number | null;
  timestamp: string;
};

/** closed 1-minute OHLCV candles per exchange and market (null where the venue gives no value) */
export type MarketCandleRow = {
  /** unique row id (local to this table and instance) */
  row_id?: bigint | number;
  /** exchange code */
  exchange: string;
  /** market code {BASE}_{QUOTE} */
  pair: string;
  /** start of the minute */
  time: Date | number | string;
  /** first price */
  open: string | number;
  /** highest price */
  high: string | number;
  /** lowest price */
  low: string | number;
  /** last price */
  close: string | number;
  /** volume-weighted average price */
  vwap?: string | number | null;
  /** trades */
  n_trades?: bigint | number | null;
  /** trades where the market maker was buyer */
  n_buy?: bigint | number | null;
  /** trades where the market maker was seller */
  n_sell?: bigint | number | null;
  /** volume in base (XTZ) */
  vol_base?: string | number | null;
  /** volume in quote */
  vol_quote?: string | number | null;
  /** maker-buy volume in base */
  vol_buy_base?: string | number | null;
  /** maker-buy volume in quote */
  vol_buy_quote?: string | number | null;
  /** maker-sell volume in base */
  vol_sell_base?: string | number | null;
  /** maker-sell volume in quote */
  vol_sell_quote?: string | number | null;
};

/** A market_candle row as read (CatalogRows): values as explorer objects show them. */
export type MarketCandleRead = {
  row_id: number | bigint;
  exchange: string;
  pair: string;
  time: string;
  open: number;
  high: number;
  low: number;
  close: number;
  vwap: number | null;
  n_trades: number | bigint | null;
  n_buy: number | bigint | null;
  n_sell: number | bigint | null;
  vol_base: number | null;
  vol_quote: number | null;
  vol_buy_base: number | null;
  vol_buy_quote: number | null;
  vol_sell_base: number | null;
  vol_sell_quote: number | null;
};

/** Typed handles of the markets tables: `ctx.append(tables.market_ticker, row)`. */
export const tables = {
  market_ticker: tableHandle<MarketTickerRow, MarketTickerRead>('market_ticker'),
  market_candle: tableHandle<MarketCandleRow, MarketCandleRead>('market_candle'),
} as const;
