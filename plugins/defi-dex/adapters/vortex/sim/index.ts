import type { ProtocolSimulator } from '../../../../../framework/sandbox/extension';
import { poolCall } from '../../../sim/cpmm/traffic';
import { registerVortex, seedVortex, vortexPool } from './sandbox';

/** Its place among the simulators, kept from before discovery: the chains stay byte-identical. */
export const order = 6;

/** The simulator of Vortex, found in this folder (framework `protocolSimulators`). */
export const simulator: ProtocolSimulator = {
  name: 'vortex',
  register: registerVortex,
  bootstrap: seedVortex,
  traffic: { build: (ctx) => poolCall(ctx, vortexPool(ctx.contracts)) },
};
