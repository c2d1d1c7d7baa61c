import type { ProtocolSimulator } from '../../../../../framework/sandbox/extension';
import { quipuswapStableDex, registerQuipuswapStable, seedQuipuswapStable, stableCall } from './sandbox';

/** Its place among the simulators, kept from before discovery: the chains stay byte-identical. */
export const order = 11;

/** The simulator of QuipuSwap StableSwap, found in this folder (framework `protocolSimulators`). */
export const simulator: ProtocolSimulator = {
  name: 'quipuswap-stable',
  register: registerQuipuswapStable,
  bootstrap: seedQuipuswapStable,
  traffic: { build: (ctx) => stableCall(ctx, quipuswapStableDex(ctx.contracts)) },
};
