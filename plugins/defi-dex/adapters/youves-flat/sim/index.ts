import type { ProtocolSimulator } from '../../../../../framework/sandbox/extension';
import { poolCall, provide } from '../../../sim/cpmm/traffic';
import { registerYouvesFlat, seedYouvesFlat, youvesFlatPool } from './sandbox';

/** Its place among the simulators, kept from before discovery: the chains stay byte-identical. */
export const order = 7;

/** The simulator of Youves flat-curve pools, found in this folder (framework `protocolSimulators`). */
export const simulator: ProtocolSimulator = {
  name: 'youves-flat',
  register: registerYouvesFlat,
  bootstrap: seedYouvesFlat,
  traffic: { build: (ctx) => poolCall(ctx, youvesFlatPool(ctx.contracts)) },
  // The early providers' deposits (framework EarlyProviders.ts): the first opens the pool.
  deposits: [(ctx, source) => provide(ctx, youvesFlatPool(ctx.contracts), source)],
};
