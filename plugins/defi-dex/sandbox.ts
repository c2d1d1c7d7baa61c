import * as path from 'node:path';
import { protocolSimulators, type SandboxExtension } from '../../framework/sandbox/extension';

/**
 * The DEX protocols' simulators, each in its adapter folder's `sim/` (found there, in their order): Liquidity Baking
 * (with its per-block subsidy), QuipuSwap v1, a Plenty volatile pool, a QuipuSwap V3 pool, a Dexter v1 pool, a Vortex
 * pool, a Youves flat-curve pool, two SpicySwap pairs with their router, two Plenty stable pools (tzBTC/kUSD,
 * ctez/tez), QuipuSwap v2's DexCore, a QuipuSwap StableSwap dex (two pools), originated empty (LB as the migration
 * left it) and opened and filled by the early providers' deposits (each `sim/index.ts` `deposits`, framework
 * EarlyProviders.ts) or the traffic's first ones, and 60% of the `defi` traffic (swaps, liquidity): one
 * share (3) for every DEX protocol together, so a new protocol takes calls from the other DEX protocols, not from
 * farms and lending.
 */
export const sandbox: SandboxExtension = protocolSimulators('defi-dex', path.join(__dirname, 'adapters'), 3);
