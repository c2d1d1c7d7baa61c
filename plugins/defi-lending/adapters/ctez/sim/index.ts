import type { ProtocolSimulator } from '../../../../../framework/sandbox/extension';
import { ctezCall, launchCtez, registerCtez } from './sandbox';

/** Its place among the simulators, kept from before discovery: the chains stay byte-identical. */
export const order = 2;

/** The simulator of the ctez ovens, found in this folder (framework `protocolSimulators`). */
export const simulator: ProtocolSimulator = {
  name: 'ctez',
  register: registerCtez,
  launch: launchCtez,
  traffic: { weight: 0.3, build: ctezCall },
};
