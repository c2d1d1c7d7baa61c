import { PluginManifest, TzidxPlugin } from '../../framework';

/** Staking farms, their events and positions. Its tables are declared in tables.yaml under `defi-farm`. */
export class DefiFarmPlugin implements TzidxPlugin {
  static readonly manifest: PluginManifest = {
    name: 'defi-farm',
    description: 'Staking farms, their events and positions',
    dependsOn: ['core-chain'],
  };
}
