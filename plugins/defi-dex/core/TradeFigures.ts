import { bps, decimal, unitPrice } from '../../../framework/defi';
import type { DexTradeAction } from './DexAdapter';

/** What a trade row says beyond the adapter's report: orientation, volumes and prices. */
export interface TradeFigures {
  side: 'buy' | 'sell';
  base: number;
  quote: number;
  baseVolume: bigint;
  quoteVolume: bigint;
  priceNet: string;
  priceGross: string;
  priceBefore: string;
  priceAfter: string;
  deltaBps: string;
  impactBps: string;
}

/**
 * Base is the lower-indexed token of the two traded (A in a two-token pool), quote the other: `buy`
 * means quote went in and base came out. Net prices are the amounts as paid and received; gross
 * prices add back fees taken from the input or the output; marginal prices are the ratios of the
 * price bases before and after (the reserves, or a pool's own marginal amounts), decimals applied.
 */
export function tradeFigures(
  t: DexTradeAction,
  before: readonly bigint[],
  after: readonly bigint[],
  decimals: readonly number[],
): TradeFigures {
  const base = Math.min(t.tokenIn, t.tokenOut);
  const quote = Math.max(t.tokenIn, t.tokenOut);
  const side = t.tokenIn === quote ? 'buy' : 'sell';
  let feesIn = 0n;
  let feesOut = 0n;
  for (const f of Object.values(t.fees)) {
    if (!f) continue;
    if (f.token === t.tokenIn) feesIn += f.amount;
    else if (f.token === t.tokenOut) feesOut += f.amount;
  }
  const [grossIn, grossOut] = [t.amountIn - feesIn, t.amountOut + feesOut];
  const [baseNet, quoteNet] = side === 'buy' ? [t.amountOut, t.amountIn] : [t.amountIn, t.amountOut];
  const [baseGross, quoteGross] = side === 'buy' ? [grossOut, grossIn] : [grossIn, grossOut];
  const price = (b: bigint, q: bigint): bigint => unitPrice(b, decimals[base], q, decimals[quote]);
  const net = price(baseNet, quoteNet);
  const pBefore = price(before[base], before[quote]);
  const pAfter = price(after[base], after[quote]);
  return {
    side,
    base,
    quote,
    baseVolume: baseNet,
    quoteVolume: quoteNet,
    priceNet: decimal(net),
    priceGross: decimal(price(baseGross, quoteGross)),
    priceBefore: decimal(pBefore),
    priceAfter: decimal(pAfter),
    deltaBps: decimal(bps(net - pBefore, pBefore), 2),
    impactBps: decimal(bps(pAfter - pBefore, pBefore), 2),
  };
}
