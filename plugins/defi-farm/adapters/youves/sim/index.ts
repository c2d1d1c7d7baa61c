import type { ProtocolSimulator } from '../../../../../framework/sandbox/extension';
import { registerYouvesSavings, seedYouvesSavings, youvesSavings, youvesSavingsCall } from './sandbox';

/** The simulator of the Youves savings pool, found in this folder (framework `protocolSimulators`). */
export const simulator: ProtocolSimulator = {
  name: 'youves',
  register: registerYouvesSavings,
  bootstrap: seedYouvesSavings,
  traffic: { weight: 0.4, build: (ctx) => youvesSavingsCall(ctx, youvesSavings(ctx.contracts)) },
};
