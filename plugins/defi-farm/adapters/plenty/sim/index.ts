import type { ProtocolSimulator } from '../../../../../framework/sandbox/extension';
import { plentyFarm, registerPlentyFarm, seedPlentyFarm } from './sandbox';
import { farmCall } from './traffic';

/** The simulator of the Plenty LP farm, found in this folder (framework `protocolSimulators`). */
export const simulator: ProtocolSimulator = {
  name: 'plenty',
  register: registerPlentyFarm,
  bootstrap: seedPlentyFarm,
  traffic: { weight: 0.6, build: (ctx) => farmCall(ctx, plentyFarm(ctx.contracts)) },
};
