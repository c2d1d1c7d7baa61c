import { injectable } from 'tsyringe';
import {
  EnumType,
  PluginContext,
  PluginContribution,
  PluginManifest,
  SeriesRollups,
  TableDef,
  TzidxPlugin,
  UndecodableValues,
} from '../../framework';
import { BlockIndexer } from './BlockIndexer';
import { DenunciationFigures } from './DenunciationFigures';
import { ChainExplorer } from './explorer/ChainExplorer';
import { OperationKinds } from './OperationKinds';

/**
 * Blocks, operations, accounts, contracts, flows, balances, running chain and supply totals. Its tables are declared in
 * tables.yaml under `core-chain`.
 */
@injectable()
export class CoreChainPlugin implements TzidxPlugin {
  static readonly manifest: PluginManifest = {
    name: 'core-chain',
    description: 'Blocks, operations, accounts, contracts, flows, balances, running chain and supply totals',
    contributes: ['handlers', 'routes'],
  };

  constructor(
    private readonly explorer: ChainExplorer,
    private readonly undecodable: UndecodableValues,
    private readonly rollups: SeriesRollups,
  ) {}

  setup(ctx: PluginContext): PluginContribution {
    const table = (code: string): TableDef => ctx.catalog.require(code);
    const opType = table('op').column('type')?.type;
    if (!(opType instanceof EnumType)) throw new Error("core-chain: the op table's `type` column must be an enum");
    const indexer = new BlockIndexer(
      {
        block: table('block'),
        chain: table('chain'),
        supply: table('supply'),
        account: table('account'),
        op: table('op'),
        constant: table('constant'),
        protocol: table('protocol'),
      },
      new OperationKinds(new Set(opType.values)),
      ctx.log,
      (kind, detail) => this.undecodable.record('core-chain', kind, detail),
    );
    const figures = new DenunciationFigures({ op: table('op'), flow: table('flow') }, this.rollups);
    return {
      handlers: (registry) => {
        registry.blocksStart((blocks, ctx) => indexer.readAhead(blocks, ctx));
        registry.onBlock((block, ctx) => indexer.index(block, ctx));
        registry.afterBatch(async (trx, from, to, state) => {
          await indexer.afterBatch(trx, state);
          await figures.afterBatch(trx, indexer.slashedIn(state), from, to);
        });
        registry.beforeRollback((trx, height) => figures.beforeRollback(trx, height));
        registry.afterRollback((trx, height) => figures.afterRollback(trx, height));
      },
      routes: (r) => this.explorer.register(r),
    };
  }
}
