import type { ProtocolSimulator } from '../../../../../framework/sandbox/extension';
import { quipuswapV2, quipuswapV2Call, registerQuipuswapV2, seedQuipuswapV2 } from './sandbox';

/** Its place among the simulators, kept from before discovery: the chains stay byte-identical. */
export const order = 10;

/** The simulator of QuipuSwap v2, found in this folder (framework `protocolSimulators`). */
export const simulator: ProtocolSimulator = {
  name: 'quipuswap-v2',
  register: registerQuipuswapV2,
  bootstrap: seedQuipuswapV2,
  traffic: { build: (ctx) => quipuswapV2Call(ctx, quipuswapV2(ctx.contracts)) },
};
