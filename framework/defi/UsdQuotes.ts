/**
 * USD prices for DeFi values, one implementation for record time (value_usd, price_usd of events and
 * trades, frozen when written) and for read time (liquidity_usd, position values, tickers). A missing
 * price path answers null, never 0.
 */
export interface UsdQuotes {
  /** USD per 1 tez at (or just before) `at`, from the markets plugin's prices; null without market data. */
  tezUsd(at: Date): Promise<string | null>;
  /**
   * Tez per 1 whole unit (decimals applied) of a token (`tez` or `KT1…_tokenId`) at `at`, routed
   * through DEX pools' reserves; null when no pool path to tez exists.
   */
  tokenTez(token: string, at: Date): Promise<string | null>;
}
