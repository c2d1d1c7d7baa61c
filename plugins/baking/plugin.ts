import { injectable } from 'tsyringe';
import {
  BLOCK_RIGHTS,
  CycleFigures,
  Database,
  PluginContext,
  PluginContribution,
  PluginManifest,
  TzidxPlugin,
} from '../../framework';
import { BakingIndexer } from './BakingIndexer';
import { PENDING } from './PendingChanges';
import { BakingExplorer } from './explorer/BakingExplorer';
import { BlockRightsLookup } from './explorer/BlockRightsLookup';
import { CycleFiguresLookup } from './explorer/CycleFiguresLookup';

/**
 * Levels of attestation rights asked for at once: on mainnet a level lists ~300 committee members,
 * so 256 levels are a few megabytes of JSON, where a whole cycle would be hundreds.
 */
const RIGHTS_WINDOW = 256;

/** Bakers: rights, stake snapshots and income per cycle. Its tables are declared in tables.yaml under `baking`. */
@injectable()
export class BakingPlugin implements TzidxPlugin {
  static readonly manifest: PluginManifest = {
    name: 'baking',
    description: 'Baking rights, stake snapshots and baker income per cycle',
    dependsOn: ['core-chain'],
    contributes: ['handlers', 'routes'],
  };

  constructor(
    private readonly explorer: BakingExplorer,
    private readonly db: Database,
    private readonly cycleFigures: CycleFigures,
  ) {}

  setup(ctx: PluginContext): PluginContribution {
    const table = (code: string) => {
      const t = ctx.catalog.table(code);
      if (!t) throw new Error(`baking: table '${code}' is missing from the catalog`);
      return t;
    };
    const indexer = new BakingIndexer(
      table('rights'),
      table('block'),
      ctx.config.baking?.rights_window ?? RIGHTS_WINDOW,
    );
    ctx.container.registerInstance(BLOCK_RIGHTS, new BlockRightsLookup(this.db, ctx.catalog));
    this.cycleFigures.add(new CycleFiguresLookup(this.db, ctx.catalog));
    return {
      handlers: (registry) => {
        registry.onBlock((block, ctx) => indexer.index(block, ctx));
        registry.blocksDone((ctx) => ctx.state.get(PENDING).write(ctx));
        registry.afterRollback(() => indexer.forget());
      },
      routes: (r) => this.explorer.register(r),
    };
  }
}
