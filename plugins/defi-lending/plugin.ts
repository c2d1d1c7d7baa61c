import { PluginManifest, TzidxPlugin } from '../../framework';

/** Lending pools, their events and positions. Its tables are declared in tables.yaml under `defi-lending`. */
export class DefiLendingPlugin implements TzidxPlugin {
  static readonly manifest: PluginManifest = {
    name: 'defi-lending',
    description: 'Lending pools, their events and positions',
    dependsOn: ['core-chain'],
  };
}
