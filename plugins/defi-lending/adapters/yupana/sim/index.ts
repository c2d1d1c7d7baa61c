import type { ProtocolSimulator } from '../../../../../framework/sandbox/extension';
import { launchYupana, registerYupana, yupanaMarket } from './sandbox';
import { lendingCall } from './traffic';

/** Its place among the simulators, kept from before discovery: the chains stay byte-identical. */
export const order = 1;

/** The simulator of the Yupana-style market, found in this folder (framework `protocolSimulators`). */
export const simulator: ProtocolSimulator = {
  name: 'yupana',
  register: registerYupana,
  launch: launchYupana,
  traffic: { weight: 1, build: (ctx) => lendingCall(ctx, yupanaMarket(ctx.contracts)) },
};
