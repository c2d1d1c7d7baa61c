import type { ProtocolSimulator } from '../../../../../framework/sandbox/extension';
import { poolCall, provide } from '../../../sim/cpmm/traffic';
import { originatePlentyLp, plentyPool, registerPlenty, seedPlenty } from './sandbox';

/** Its place among the simulators, kept from before discovery: the chains stay byte-identical. */
export const order = 3;

/** The simulator of Plenty volatile pools, found in this folder (framework `protocolSimulators`). */
export const simulator: ProtocolSimulator = {
  name: 'plenty',
  // LP tokens first, then the pools that mint them.
  originateFirst: originatePlentyLp,
  register: registerPlenty,
  bootstrap: seedPlenty,
  traffic: { build: (ctx) => poolCall(ctx, plentyPool(ctx.contracts)) },
  // The early providers' deposits (framework EarlyProviders.ts): the first opens the pool.
  deposits: [(ctx, source) => provide(ctx, plentyPool(ctx.contracts), source)],
};
