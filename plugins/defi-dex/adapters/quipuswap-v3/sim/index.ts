import type { ProtocolSimulator } from '../../../../../framework/sandbox/extension';
import { originateQuipuswapV3, quipuswapV3Call, registerQuipuswapV3 } from './sandbox';

/** Its place among the simulators, kept from before discovery: the chains stay byte-identical. */
export const order = 4;

/** The simulator of QuipuSwap V3, found in this folder (framework `protocolSimulators`). */
export const simulator: ProtocolSimulator = {
  name: 'quipuswap-v3',
  register: registerQuipuswapV3,
  bootstrap: originateQuipuswapV3,
  traffic: { build: quipuswapV3Call },
};
