import type { SandboxExtension } from '../../framework/sandbox/extension';
import { plentyFarm, registerPlentyFarm, seedPlentyFarm } from './adapters/plenty/sandbox';
import { farmCall } from './adapters/plenty/traffic';

/** The farm protocols' simulators: a Plenty LP farm and 20% of the `defi` traffic (stake, unstake, harvest). */
export const sandbox: SandboxExtension = {
  name: 'defi-farm',
  register: (contracts, book) => registerPlentyFarm(contracts, book),
  bootstrap: seedPlentyFarm,
  traffic: [{ name: 'defi-farm:plenty', weight: 1, build: (ctx) => farmCall(ctx, plentyFarm(ctx.contracts)) }],
};
