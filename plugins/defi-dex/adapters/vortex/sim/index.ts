import type { ProtocolSimulator } from '../../../../../framework/sandbox/extension';
import { poolCall, provide } from '../../../sim/cpmm/traffic';
import { registerVortex, seedVortex, vortexPool } from './sandbox';

/** Its place among the simulators, kept from before discovery: the chains stay byte-identical. */
export const order = 6;

/** The simulator of Vortex, found in this folder (framework `protocolSimulators`). */
export const simulator: ProtocolSimulator = {
  name: 'vortex',
  register: registerVortex,
  bootstrap: seedVortex,
  traffic: { build: (ctx) => poolCall(ctx, vortexPool(ctx.contracts)) },
  // The early providers' deposits (framework EarlyProviders.ts): the first opens the pool.
  deposits: [(ctx, source) => provide(ctx, vortexPool(ctx.contracts), source)],
};
