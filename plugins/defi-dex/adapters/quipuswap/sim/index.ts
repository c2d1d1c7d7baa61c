import type { ProtocolSimulator } from '../../../../../framework/sandbox/extension';
import { poolCall, provide } from '../../../sim/cpmm/traffic';
import { quipuswapPool, registerQuipuswap, seedQuipuswap } from './sandbox';

/** Its place among the simulators, kept from before discovery: the chains stay byte-identical. */
export const order = 2;

/** The simulator of QuipuSwap v1, found in this folder (framework `protocolSimulators`). */
export const simulator: ProtocolSimulator = {
  name: 'quipuswap',
  register: registerQuipuswap,
  bootstrap: seedQuipuswap,
  traffic: { build: (ctx) => poolCall(ctx, quipuswapPool(ctx.contracts)) },
  // The early providers' deposits (framework EarlyProviders.ts): the first opens the pool.
  deposits: [(ctx, source) => provide(ctx, quipuswapPool(ctx.contracts), source)],
};
