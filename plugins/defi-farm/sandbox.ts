import type { SandboxExtension } from '../../framework/sandbox/extension';
import { plentyFarm, registerPlentyFarm, seedPlentyFarm } from './adapters/plenty/sim/sandbox';
import { farmCall } from './adapters/plenty/sim/traffic';
import {
  quipuswapFarm,
  quipuswapFarmCall,
  registerQuipuswapFarm,
  seedQuipuswapFarm,
} from './adapters/quipuswap/sim/sandbox';
import {
  registerYouvesSavings,
  seedYouvesSavings,
  youvesSavings,
  youvesSavingsCall,
} from './adapters/youves/sim/sandbox';

/**
 * The farm protocols' simulators: a Plenty LP farm, a QuipuSwap TFarm and a Youves savings pool, each with a share of
 * the `defi` traffic.
 */
export const sandbox: SandboxExtension = {
  name: 'defi-farm',
  register: (contracts, book) => {
    registerPlentyFarm(contracts, book);
    registerQuipuswapFarm(contracts, book);
    registerYouvesSavings(contracts, book);
  },
  bootstrap: (g) => {
    seedPlentyFarm(g);
    seedQuipuswapFarm(g);
    seedYouvesSavings(g);
  },
  traffic: [
    { name: 'defi-farm:plenty', weight: 0.6, build: (ctx) => farmCall(ctx, plentyFarm(ctx.contracts)) },
    { name: 'defi-farm:quipuswap', weight: 0.4, build: (ctx) => quipuswapFarmCall(ctx, quipuswapFarm(ctx.contracts)) },
    { name: 'defi-farm:youves', weight: 0.4, build: (ctx) => youvesSavingsCall(ctx, youvesSavings(ctx.contracts)) },
  ],
};
