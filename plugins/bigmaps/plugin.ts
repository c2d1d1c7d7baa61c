import { PluginManifest, TzidxPlugin } from '../../framework';

/** Bigmap allocations, live values and historic updates. Its tables are declared in tables.yaml under `bigmaps`. */
export class BigmapsPlugin implements TzidxPlugin {
  static readonly manifest: PluginManifest = {
    name: 'bigmaps',
    description: 'Bigmap allocations, live values and historic updates',
    dependsOn: ['core-chain'],
  };
}
