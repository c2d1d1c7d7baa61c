import type { ProtocolSimulator } from '../../../../../framework/sandbox/extension';
import { launchQuipuswapFarm, quipuswapFarm, quipuswapFarmCall, registerQuipuswapFarm } from './sandbox';

/** The simulator of the QuipuSwap TFarm, found in this folder (framework `protocolSimulators`). */
export const simulator: ProtocolSimulator = {
  name: 'quipuswap',
  register: registerQuipuswapFarm,
  launch: launchQuipuswapFarm,
  traffic: { weight: 0.4, build: (ctx) => quipuswapFarmCall(ctx, quipuswapFarm(ctx.contracts)) },
};
