import { injectable } from 'tsyringe';
import { PluginContext, PluginContribution, PluginManifest, TzidxPlugin } from '../../framework';
import { GovernanceExplorer } from './explorer/GovernanceExplorer';
import { GovernanceIndexer } from './GovernanceIndexer';
import { GovernanceTables } from './GovernanceTables';

/**
 * Elections, proposals, voting periods, ballots and voting listings. Its tables are declared in tables.yaml under
 * `governance`.
 */
@injectable()
export class GovernancePlugin implements TzidxPlugin {
  static readonly manifest: PluginManifest = {
    name: 'governance',
    description: 'Elections, proposals, voting periods, ballots and voting listings',
    dependsOn: ['core-chain'],
    contributes: ['handlers', 'routes'],
  };

  constructor(private readonly explorer: GovernanceExplorer) {}

  setup(ctx: PluginContext): PluginContribution {
    const indexer = new GovernanceIndexer(GovernanceTables.from(ctx.catalog), ctx.log);
    return {
      handlers: (registry) => registry.onBlock((block, ctx) => indexer.index(block, ctx)),
      routes: (r) => this.explorer.register(r),
    };
  }
}
