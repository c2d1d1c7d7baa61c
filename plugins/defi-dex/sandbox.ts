import type { SandboxExtension } from '../../framework/sandbox/extension';
import { poolCall } from './adapters/cpmm/traffic';
import { lbPool, lbSubsidy, originateLbToken, registerLb, seedLb } from './adapters/lb/sandbox';
import { originatePlentyLp, plentyPool, registerPlenty, seedPlenty } from './adapters/plenty/sandbox';
import { quipuswapPool, registerQuipuswap, seedQuipuswap } from './adapters/quipuswap/sandbox';
import { quipuswapV2, quipuswapV2Call, registerQuipuswapV2, seedQuipuswapV2 } from './adapters/quipuswap-v2/sandbox';

/**
 * The DEX protocols' simulators: Liquidity Baking (with its per-block subsidy), QuipuSwap v1 and a
 * Plenty volatile pool, QuipuSwap v2's DexCore, their bootstrap reserves, and their share of the
 * `defi` traffic (swaps, liquidity, LP transfers).
 */
export const sandbox: SandboxExtension = {
  name: 'defi-dex',
  register(contracts, book, errorPrefix) {
    registerLb(contracts, book, errorPrefix);
    registerQuipuswap(contracts, book);
    registerPlenty(contracts, book, errorPrefix);
    registerQuipuswapV2(contracts, book);
  },
  bootstrap(g) {
    // LP tokens first, then the pools that mint them.
    originateLbToken(g);
    originatePlentyLp(g);
    seedLb(g);
    seedQuipuswap(g);
    seedPlenty(g);
    seedQuipuswapV2(g);
  },
  traffic: [
    { weight: 3, build: (ctx) => poolCall(ctx, ctx.prng.pick([lbPool(ctx.contracts), quipuswapPool(ctx.contracts), plentyPool(ctx.contracts)])) },
    { weight: 1, build: (ctx) => quipuswapV2Call(ctx, quipuswapV2(ctx.contracts)) },
  ],
  blockResults: (ctx) => [lbSubsidy(ctx)],
};
