import type { SandboxExtension } from '../../framework/sandbox/extension';
import { poolCall } from './adapters/cpmm/traffic';
import { lbPool, lbSubsidy, originateLbToken, registerLb, seedLb } from './adapters/lb/sandbox';
import { originatePlentyLp, plentyPool, registerPlenty, seedPlenty } from './adapters/plenty/sandbox';
import { plentyStableCall, registerPlentyStable, seedPlentyStable } from './adapters/plenty-stable/sandbox';
import { quipuswapPool, registerQuipuswap, seedQuipuswap } from './adapters/quipuswap/sandbox';
import { registerSpicy, seedSpicy, spicyCall } from './adapters/spicy/sandbox';

/**
 * The DEX protocols' simulators: Liquidity Baking (with its per-block subsidy), QuipuSwap v1, a
 * Plenty volatile pool, two Plenty stable pools (tzBTC/kUSD, ctez/tez), two SpicySwap pairs with their
 * router, their bootstrap reserves, and most of the `defi` traffic (swaps, liquidity).
 */
export const sandbox: SandboxExtension = {
  name: 'defi-dex',
  register(contracts, book, errorPrefix) {
    registerLb(contracts, book, errorPrefix);
    registerQuipuswap(contracts, book);
    registerPlenty(contracts, book, errorPrefix);
    registerSpicy(contracts, book);
    registerPlentyStable(contracts, book, errorPrefix);
  },
  bootstrap(g) {
    // LP tokens first, then the pools that mint them.
    originateLbToken(g);
    originatePlentyLp(g);
    seedLb(g);
    seedQuipuswap(g);
    seedPlenty(g);
    seedSpicy(g);
    seedPlentyStable(g);
  },
  traffic: [
    { weight: 3, build: (ctx) => poolCall(ctx, ctx.prng.pick([lbPool(ctx.contracts), quipuswapPool(ctx.contracts), plentyPool(ctx.contracts)])) },
    { weight: 1, build: spicyCall },
    { weight: 1, build: plentyStableCall },
  ],
  blockResults: (ctx) => [lbSubsidy(ctx)],
};
