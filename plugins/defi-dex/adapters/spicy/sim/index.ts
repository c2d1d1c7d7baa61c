import type { ProtocolSimulator } from '../../../../../framework/sandbox/extension';
import { registerSpicy, seedSpicy, spicyCall, spicyDeposit, spicyPairs } from './sandbox';

/** Its place among the simulators, kept from before discovery: the chains stay byte-identical. */
export const order = 8;

/** The simulator of SpicySwap, found in this folder (framework `protocolSimulators`). */
export const simulator: ProtocolSimulator = {
  name: 'spicy',
  register: registerSpicy,
  bootstrap: seedSpicy,
  traffic: { build: spicyCall },
  // The early providers' deposits into both pairs (framework EarlyProviders.ts).
  deposits: [0, 1].map((i) => (ctx, source) => spicyDeposit(ctx, spicyPairs(ctx.contracts)[i], source)),
};
