import { PluginManifest, TzidxPlugin } from '../../framework';

/** Blocks, operations, accounts, contracts, flows, balances, running chain and supply totals, baker rights and income. Its tables are declared in tables.yaml under `core-chain`. */
export class CoreChainPlugin implements TzidxPlugin {
  static readonly manifest: PluginManifest = {
    name: 'core-chain',
    description: 'Blocks, operations, accounts, contracts, flows, balances, running chain and supply totals, baker rights and income',
  };
}
