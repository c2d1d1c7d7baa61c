import type { ProtocolSimulator } from '../../../../../framework/sandbox/extension';
import { launchYouvesSavings, registerYouvesSavings, youvesSavings, youvesSavingsCall } from './sandbox';

/** The simulator of the Youves savings pool, found in this folder (framework `protocolSimulators`). */
export const simulator: ProtocolSimulator = {
  name: 'youves',
  register: registerYouvesSavings,
  launch: launchYouvesSavings,
  traffic: { weight: 0.4, build: (ctx) => youvesSavingsCall(ctx, youvesSavings(ctx.contracts)) },
};
