import type { ProtocolSimulator } from '../../../../../framework/sandbox/extension';
import { poolCall, provide } from '../../../sim/cpmm/traffic';
import { dexterPool, registerDexter, seedDexter } from './sandbox';

/** Its place among the simulators, kept from before discovery: the chains stay byte-identical. */
export const order = 5;

/** The simulator of Dexter v1, found in this folder (framework `protocolSimulators`). */
export const simulator: ProtocolSimulator = {
  name: 'dexter',
  register: registerDexter,
  bootstrap: seedDexter,
  traffic: { build: (ctx) => poolCall(ctx, dexterPool(ctx.contracts)) },
  // The early providers' deposits (framework EarlyProviders.ts): the first opens the pool.
  deposits: [(ctx, source) => provide(ctx, dexterPool(ctx.contracts), source)],
};
