import type { SandboxExtension } from '../../framework/sandbox/extension';
import { poolCall } from './adapters/cpmm/traffic';
import { dexterPool, registerDexter, seedDexter } from './adapters/dexter/sandbox';
import { lbPool, lbSubsidy, originateLbToken, registerLb, seedLb } from './adapters/lb/sandbox';
import { originatePlentyLp, plentyPool, registerPlenty, seedPlenty } from './adapters/plenty/sandbox';
import { quipuswapPool, registerQuipuswap, seedQuipuswap } from './adapters/quipuswap/sandbox';
import { registerVortex, seedVortex, vortexPool } from './adapters/vortex/sandbox';
import { registerYouvesFlat, seedYouvesFlat, youvesFlatPool } from './adapters/youves-flat/sandbox';

/**
 * The DEX protocols' simulators: Liquidity Baking (with its per-block subsidy), QuipuSwap v1, a
 * Plenty volatile pool, a Dexter v1 pool, a Vortex pool and a Youves flat-curve pool, their bootstrap
 * reserves, and most of the `defi` traffic (swaps, liquidity).
 */
export const sandbox: SandboxExtension = {
  name: 'defi-dex',
  register(contracts, book, errorPrefix) {
    registerLb(contracts, book, errorPrefix);
    registerQuipuswap(contracts, book);
    registerPlenty(contracts, book, errorPrefix);
    registerDexter(contracts, book);
    registerVortex(contracts, book, errorPrefix);
    registerYouvesFlat(contracts, book, errorPrefix);
  },
  bootstrap(g) {
    // LP tokens first, then the pools that mint them.
    originateLbToken(g);
    originatePlentyLp(g);
    seedLb(g);
    seedQuipuswap(g);
    seedPlenty(g);
    seedDexter(g);
    seedVortex(g);
    seedYouvesFlat(g);
  },
  // The newer pools share one light source, so the older pools, farm and lending keep most of their traffic.
  traffic: [
    { weight: 3, build: (ctx) => poolCall(ctx, ctx.prng.pick([lbPool(ctx.contracts), quipuswapPool(ctx.contracts), plentyPool(ctx.contracts)])) },
    { weight: 1, build: (ctx) => poolCall(ctx, ctx.prng.pick([dexterPool(ctx.contracts), vortexPool(ctx.contracts), youvesFlatPool(ctx.contracts)])) },
  ],
  blockResults: (ctx) => [lbSubsidy(ctx)],
};
