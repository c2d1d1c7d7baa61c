import type { BlockContext, SandboxExtension } from '../../framework/sandbox/extension';
import { poolCall, provide } from './adapters/cpmm/traffic';
import { dexterPool, registerDexter, seedDexter } from './adapters/dexter/sandbox';
import { lbPool, lbSubsidy, registerLb, seedLb } from './adapters/lb/sandbox';
import { originatePlentyLp, plentyPool, registerPlenty, seedPlenty } from './adapters/plenty/sandbox';
import {
  plentyStableCall,
  plentyStableDeposit,
  registerPlentyStable,
  seedPlentyStable,
} from './adapters/plenty-stable/sandbox';
import { quipuswapPool, registerQuipuswap, seedQuipuswap } from './adapters/quipuswap/sandbox';
import {
  quipuswapStableDex,
  registerQuipuswapStable,
  seedQuipuswapStable,
  stableCall,
} from './adapters/quipuswap-stable/sandbox';
import { quipuswapV2, quipuswapV2Call, registerQuipuswapV2, seedQuipuswapV2 } from './adapters/quipuswap-v2/sandbox';
import { originateQuipuswapV3, quipuswapV3Call, registerQuipuswapV3 } from './adapters/quipuswap-v3/sandbox';
import { registerSpicy, seedSpicy, spicyCall, spicyDeposit, spicyPairs } from './adapters/spicy/sandbox';
import { registerVortex, seedVortex, vortexPool } from './adapters/vortex/sandbox';
import { registerYouvesFlat, seedYouvesFlat, youvesFlatPool } from './adapters/youves-flat/sandbox';
import { chooseProviders, earlyDeposits, type Provide } from './earlyProviders';

/** One traffic source per simulated DEX protocol (pool), by `defi-dex:<adapter folder>`. */
const DEX_CALLS: readonly [string, (ctx: BlockContext) => Record<string, unknown> | undefined][] = [
  ['lb', (ctx) => poolCall(ctx, lbPool(ctx.contracts))],
  ['quipuswap', (ctx) => poolCall(ctx, quipuswapPool(ctx.contracts))],
  ['plenty', (ctx) => poolCall(ctx, plentyPool(ctx.contracts))],
  ['quipuswap-v3', quipuswapV3Call],
  ['dexter', (ctx) => poolCall(ctx, dexterPool(ctx.contracts))],
  ['vortex', (ctx) => poolCall(ctx, vortexPool(ctx.contracts))],
  ['youves-flat', (ctx) => poolCall(ctx, youvesFlatPool(ctx.contracts))],
  ['spicy', spicyCall],
  ['plenty-stable', plentyStableCall],
  ['quipuswap-v2', (ctx) => quipuswapV2Call(ctx, quipuswapV2(ctx.contracts))],
  ['quipuswap-stable', (ctx) => stableCall(ctx, quipuswapStableDex(ctx.contracts))],
];

/**
 * The pools the early providers open and fill. Liquidity Baking starts as the migration left it; QuipuSwap v2's
 * pairs wait for a holder's `launch_exchange`, V3 and StableSwap for the traffic's first deposits.
 */
const EARLY_DEPOSITS: readonly Provide[] = [
  ...[quipuswapPool, plentyPool, dexterPool, vortexPool, youvesFlatPool].map(
    (pool): Provide =>
      (ctx, source) =>
        provide(ctx, pool(ctx.contracts), source),
  ),
  ...[0, 1].map(
    (i): Provide =>
      (ctx, source) =>
        spicyDeposit(ctx, spicyPairs(ctx.contracts)[i], source),
  ),
  ...[true, false].map(
    (onTokens): Provide =>
      (ctx, source) =>
        plentyStableDeposit(ctx, onTokens, source),
  ),
];

/**
 * The DEX protocols' simulators: Liquidity Baking (with its per-block subsidy), QuipuSwap v1, a
 * Plenty volatile pool, a QuipuSwap V3 pool, a Dexter v1 pool, a Vortex pool, a Youves flat-curve
 * pool, two SpicySwap pairs with their router, two Plenty stable pools (tzBTC/kUSD, ctez/tez),
 * QuipuSwap v2's DexCore, a QuipuSwap StableSwap dex (two pools), originated empty (LB as the migration left
 * it), opened and filled by the early providers' deposits (earlyProviders.ts) or the traffic's first ones, and
 * 60% of the `defi` traffic (swaps, liquidity).
 */
export const sandbox: SandboxExtension = {
  name: 'defi-dex',
  register(contracts, book, errorPrefix) {
    registerLb(contracts, book, errorPrefix);
    registerQuipuswap(contracts, book);
    registerPlenty(contracts, book, errorPrefix);
    registerQuipuswapV3(contracts, book);
    registerDexter(contracts, book);
    registerVortex(contracts, book, errorPrefix);
    registerYouvesFlat(contracts, book, errorPrefix);
    registerSpicy(contracts, book);
    registerPlentyStable(contracts, book, errorPrefix);
    registerQuipuswapV2(contracts, book);
    registerQuipuswapStable(contracts, book, errorPrefix);
  },
  bootstrap(g) {
    // LP tokens first, then the pools that mint them (Sirius after its CPMM, in the migration's order).
    originatePlentyLp(g);
    seedLb(g);
    seedQuipuswap(g);
    seedPlenty(g);
    originateQuipuswapV3(g);
    seedDexter(g);
    seedVortex(g);
    seedYouvesFlat(g);
    seedSpicy(g);
    seedPlentyStable(g);
    seedQuipuswapV2(g);
    seedQuipuswapStable(g);
    chooseProviders(g);
  },
  openings: (ctx) => earlyDeposits(ctx, EARLY_DEPOSITS),
  // One share of the `defi` traffic for every DEX protocol together: a new protocol takes calls from
  // the other DEX protocols, not from farms and lending.
  traffic: DEX_CALLS.map(([name, build]) => ({ name: `defi-dex:${name}`, weight: 3 / DEX_CALLS.length, build })),
  blockResults: (ctx) => [lbSubsidy(ctx)],
};
