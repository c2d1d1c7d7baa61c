import type { ProtocolSimulator } from '../../../../../framework/sandbox/extension';
import { plentyStableCall, plentyStableDeposit, registerPlentyStable, seedPlentyStable } from './sandbox';

/** Its place among the simulators, kept from before discovery: the chains stay byte-identical. */
export const order = 9;

/** The simulator of Plenty stable pools, found in this folder (framework `protocolSimulators`). */
export const simulator: ProtocolSimulator = {
  name: 'plenty-stable',
  register: registerPlentyStable,
  bootstrap: seedPlentyStable,
  traffic: { build: plentyStableCall },
  // The early providers' deposits into the token pool, then the ctez/tez pool (framework EarlyProviders.ts).
  deposits: [true, false].map((onTokens) => (ctx, source) => plentyStableDeposit(ctx, onTokens, source)),
};
