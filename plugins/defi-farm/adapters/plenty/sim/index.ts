import type { ProtocolSimulator } from '../../../../../framework/sandbox/extension';
import { launchPlentyFarm, plentyFarm, registerPlentyFarm } from './sandbox';
import { farmCall } from './traffic';

/** The simulator of the Plenty LP farm, found in this folder (framework `protocolSimulators`). */
export const simulator: ProtocolSimulator = {
  name: 'plenty',
  register: registerPlentyFarm,
  launch: launchPlentyFarm,
  traffic: { weight: 0.6, build: (ctx) => farmCall(ctx, plentyFarm(ctx.contracts)) },
};
