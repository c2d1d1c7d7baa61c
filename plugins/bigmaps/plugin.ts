import { injectable } from 'tsyringe';
import { HandlerRegistry, Logger, PluginContext, PluginManifest, RouteRegistry, TableDef, TzidxPlugin } from '../../framework';
import { BigmapIndexer } from './BigmapIndexer';
import { BigmapExplorer } from './explorer/BigmapExplorer';

/** Bigmap allocations, live values and historic updates. Its tables are declared in tables.yaml under `bigmaps`. */
@injectable()
export class BigmapsPlugin implements TzidxPlugin {
  static readonly manifest: PluginManifest = {
    name: 'bigmaps',
    description: 'Bigmap allocations, live values and historic updates',
    dependsOn: ['core-chain'],
  };

  private indexer?: BigmapIndexer;

  constructor(private readonly explorer: BigmapExplorer) {}

  register(ctx: PluginContext): void {
    const table = (code: string): TableDef => ctx.catalog.require(code);
    table('bigmaps');
    this.indexer = new BigmapIndexer(table('bigmap_values'), table('bigmap_updates'), ctx.log as Logger);
  }

  handlers(registry: HandlerRegistry): void {
    const indexer = this.indexer;
    if (!indexer) throw new Error('bigmaps: handlers() before register()');
    registry.onBlock((block, ctx) => indexer.index(block, ctx));
    registry.afterBatch((trx, from, to) => indexer.afterBatch(trx, from, to));
    registry.beforeRollback((trx, height) => indexer.beforeRollback(trx, height));
  }

  routes(r: RouteRegistry): void {
    this.explorer.register(r);
  }
}
