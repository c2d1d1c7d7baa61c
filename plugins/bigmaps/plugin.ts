import { injectable } from 'tsyringe';
import { PluginContext, PluginContribution, PluginManifest, TzidxPlugin } from '../../framework';
import { BigmapIndexer } from './BigmapIndexer';
import { BigmapExplorer } from './explorer/BigmapExplorer';
import { tables } from './tables.generated';

/** Bigmap allocations, live values and historic updates. Its tables are declared in tables.yaml under `bigmaps`. */
@injectable()
export class BigmapsPlugin implements TzidxPlugin {
  static readonly manifest: PluginManifest = {
    name: 'bigmaps',
    description: 'Bigmap allocations, live values and historic updates',
    dependsOn: ['core-chain'],
    contributes: ['handlers', 'routes'],
  };

  constructor(private readonly explorer: BigmapExplorer) {}

  setup(ctx: PluginContext): PluginContribution {
    ctx.catalog.require(tables.bigmaps.code);
    const indexer = new BigmapIndexer(
      ctx.catalog.require(tables.bigmap_values.code),
      ctx.catalog.require(tables.bigmap_updates.code),
      ctx.log,
    );
    return {
      handlers: (registry) => {
        registry.blocksStart((blocks, ctx) => indexer.readAhead(blocks, ctx));
        registry.onBlock((block, ctx) => indexer.index(block, ctx));
        registry.afterBatch((trx, from, to) => indexer.afterBatch(trx, from, to));
        registry.recompute(tables.bigmap_values, (trx, height) => indexer.recompute(trx, height));
      },
      routes: (r) => this.explorer.register(r),
    };
  }
}
