import type { ProtocolSimulator } from '../../../../../framework/sandbox/extension';
import { registerSpicy, seedSpicy, spicyCall } from './sandbox';

/** Its place among the simulators, kept from before discovery: the chains stay byte-identical. */
export const order = 8;

/** The simulator of SpicySwap, found in this folder (framework `protocolSimulators`). */
export const simulator: ProtocolSimulator = {
  name: 'spicy',
  register: registerSpicy,
  bootstrap: seedSpicy,
  traffic: { build: spicyCall },
};
