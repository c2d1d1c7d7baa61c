import { injectable } from 'tsyringe';
import { EnumType, HandlerRegistry, Logger, PluginContext, PluginManifest, RouteRegistry, TableDef, TzidxPlugin } from '../../framework';
import { BlockIndexer } from './BlockIndexer';
import { ChainExplorer } from './explorer/ChainExplorer';
import { OperationKinds } from './OperationKinds';

/** Blocks, operations, accounts, contracts, flows, balances, running chain and supply totals. Its tables are declared in tables.yaml under `core-chain`. */
@injectable()
export class CoreChainPlugin implements TzidxPlugin {
  static readonly manifest: PluginManifest = {
    name: 'core-chain',
    description: 'Blocks, operations, accounts, contracts, flows, balances, running chain and supply totals',
  };

  private indexer?: BlockIndexer;

  constructor(private readonly explorer: ChainExplorer) {}

  register(ctx: PluginContext): void {
    const table = (code: string): TableDef => ctx.catalog.require(code);
    const opType = table('op').column('type')?.type;
    if (!(opType instanceof EnumType)) throw new Error("core-chain: the op table's `type` column must be an enum");
    this.indexer = new BlockIndexer(
      { block: table('block'), chain: table('chain'), supply: table('supply'), account: table('account'), op: table('op'), constant: table('constant'), protocol: table('protocol') },
      new OperationKinds(new Set(opType.values)),
      ctx.log as Logger,
    );
  }

  handlers(registry: HandlerRegistry): void {
    const indexer = this.indexer;
    if (!indexer) throw new Error('core-chain: handlers() before register()');
    registry.onBlock((block, ctx) => indexer.index(block, ctx));
    registry.afterBatch((trx, from, to) => indexer.afterBatch(trx, from, to));
    registry.afterRollback(() => indexer.forget());
  }

  routes(r: RouteRegistry): void {
    this.explorer.register(r);
  }
}
