import type { ProtocolSimulator } from '../../../../../framework/sandbox/extension';
import { poolCall } from '../../../sim/cpmm/traffic';
import { lbPool, lbSubsidy, registerLb, seedLb } from './sandbox';

/** Its place among the simulators, kept from before discovery: the chains stay byte-identical. */
export const order = 1;

/** The simulator of Liquidity Baking, found in this folder (framework `protocolSimulators`). */
export const simulator: ProtocolSimulator = {
  name: 'lb',
  register: registerLb,
  bootstrap: seedLb,
  traffic: { build: (ctx) => poolCall(ctx, lbPool(ctx.contracts)) },
  blockResults: (ctx) => [lbSubsidy(ctx)],
};
