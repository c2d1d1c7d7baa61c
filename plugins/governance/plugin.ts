import { injectable } from 'tsyringe';
import { HandlerRegistry, PluginContext, PluginManifest, RouteRegistry, TzidxPlugin } from '../../framework';
import { GovernanceExplorer } from './explorer/GovernanceExplorer';
import { GovernanceIndexer } from './GovernanceIndexer';
import { GovernanceTables } from './GovernanceTables';

/** Elections, proposals, voting periods, ballots and voting listings. Its tables are declared in tables.yaml under `governance`. */
@injectable()
export class GovernancePlugin implements TzidxPlugin {
  static readonly manifest: PluginManifest = {
    name: 'governance',
    description: 'Elections, proposals, voting periods, ballots and voting listings',
    dependsOn: ['core-chain'],
  };

  private indexer?: GovernanceIndexer;

  constructor(private readonly explorer: GovernanceExplorer) {}

  register(ctx: PluginContext): void {
    this.indexer = new GovernanceIndexer(GovernanceTables.from(ctx.catalog), ctx.log);
  }

  handlers(registry: HandlerRegistry): void {
    const indexer = this.indexer;
    if (!indexer) throw new Error('governance: handlers() before register()');
    registry.onBlock((block, ctx) => indexer.index(block, ctx));
    registry.afterRollback(() => indexer.forget());
  }

  routes(r: RouteRegistry): void {
    this.explorer.register(r);
  }
}
