import { PluginManifest, TzidxPlugin } from '../../framework';

/** Elections, proposals, voting periods and ballots. Its tables are declared in tables.yaml under `governance`. */
export class GovernancePlugin implements TzidxPlugin {
  static readonly manifest: PluginManifest = {
    name: 'governance',
    description: 'Elections, proposals, voting periods and ballots',
    dependsOn: ['core-chain'],
  };
}
