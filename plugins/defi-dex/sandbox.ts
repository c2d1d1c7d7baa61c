import type { SandboxExtension } from '../../framework/sandbox/extension';
import { poolCall } from './adapters/cpmm/traffic';
import { lbPool, lbSubsidy, originateLbToken, registerLb, seedLb } from './adapters/lb/sandbox';
import { originatePlentyLp, plentyPool, registerPlenty, seedPlenty } from './adapters/plenty/sandbox';
import { quipuswapPool, registerQuipuswap, seedQuipuswap } from './adapters/quipuswap/sandbox';
import { quipuswapStableDex, registerQuipuswapStable, seedQuipuswapStable, stableCall } from './adapters/quipuswap-stable/sandbox';

/**
 * The DEX protocols' simulators: Liquidity Baking (with its per-block subsidy), QuipuSwap v1, a
 * Plenty volatile pool and a QuipuSwap StableSwap dex, their bootstrap reserves, and 60% of the
 * `defi` traffic (swaps, liquidity).
 */
export const sandbox: SandboxExtension = {
  name: 'defi-dex',
  register(contracts, book, errorPrefix) {
    registerLb(contracts, book, errorPrefix);
    registerQuipuswap(contracts, book);
    registerPlenty(contracts, book, errorPrefix);
    registerQuipuswapStable(contracts, book, errorPrefix);
  },
  bootstrap(g) {
    // LP tokens first, then the pools that mint them.
    originateLbToken(g);
    originatePlentyLp(g);
    seedLb(g);
    seedQuipuswap(g);
    seedPlenty(g);
    seedQuipuswapStable(g);
  },
  traffic: [
    { weight: 2, build: (ctx) => poolCall(ctx, ctx.prng.pick([lbPool(ctx.contracts), quipuswapPool(ctx.contracts), plentyPool(ctx.contracts)])) },
    { weight: 1, build: (ctx) => stableCall(ctx, quipuswapStableDex(ctx.contracts)) },
  ],
  blockResults: (ctx) => [lbSubsidy(ctx)],
};
