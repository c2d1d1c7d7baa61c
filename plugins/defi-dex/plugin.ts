import { PluginManifest, TzidxPlugin } from '../../framework';

/** DEX pools, trades, positions, prices and candles. Its tables are declared in tables.yaml under `defi-dex`. */
export class DefiDexPlugin implements TzidxPlugin {
  static readonly manifest: PluginManifest = {
    name: 'defi-dex',
    description: 'DEX pools, trades, positions, prices and candles',
    dependsOn: ['core-chain'],
  };
}
