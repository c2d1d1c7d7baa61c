import { injectable } from 'tsyringe';
import {
  Catalog,
  Database,
  ledgerChecks,
  LedgerSpec,
  PluginContext,
  PluginContribution,
  PluginManifest,
  TzidxPlugin,
  UndecodableValues,
} from '../../framework';
import { DEX_ADAPTERS } from './adapters';
import { DexRoutes } from './api/DexRoutes';
import { DexRecorder } from './core/DexRecorder';
import { MarketUsdQuotes, readAheadPositions } from '../../framework/defi';
import { tables } from './tables.generated';

const ABCD = ['a', 'b', 'c', 'd'] as const;

/** What `tzidx check defi` holds the DEX tables to: positions add up to the pools' LP supply, nothing negative. */
const DEX_LEDGER: LedgerSpec = {
  family: 'defi',
  name: 'dex',
  holdings: {
    table: 'dex_position',
    key: 'position',
    group: 'pool',
    balance: 'shares',
    ledger: { plus: ['shares_minted', 'shares_received'], minus: ['shares_burned', 'shares_sent'] },
    closed: { flag: 'is_closed', height: 'close_height', time: 'close_time', when: ['shares'] },
    height: 'update_height',
    nonNegative: ['shares', ...ABCD.flatMap((t) => [`deposited_${t}`, `withdrawn_${t}`])],
  },
  groups: {
    table: 'dex_pool',
    key: 'pool',
    total: 'supply_lp',
    // A concentrated-liquidity pool's supply_lp is its active liquidity (the positions in range), no share total.
    totalUnless: 'marginal_a',
    height: 'update_height',
    nonNegative: [...ABCD.map((t) => `supply_${t}`), 'supply_lp'],
  },
  events: {
    table: 'dex_event',
    group: 'pool',
    height: 'height',
    op: 'tx_hash',
    nonNegative: [...ABCD.flatMap((t) => [`volume_${t}`, `supply_${t}`]), 'volume_lp', 'supply_lp'],
  },
};

/** DEX pools, trades, positions, prices and candles. Its tables are declared in tables.yaml under `defi-dex`. */
@injectable()
export class DefiDexPlugin implements TzidxPlugin {
  static readonly manifest: PluginManifest = {
    name: 'defi-dex',
    description: 'DEX pools, trades, positions, prices and candles',
    dependsOn: ['core-chain'],
  };

  constructor(
    private readonly db: Database,
    private readonly catalog: Catalog,
  ) {}

  /** Every adapter decodes its protocol's operations and reports them to one recorder. */
  setup(ctx: PluginContext): PluginContribution {
    return {
      handlers: (registry) => {
        // An amount past the bigint columns (a token's unbounded nat) skips that record, counted: never the batch.
        const recorder = ctx.container
          .resolve(UndecodableValues)
          .guardIntegers('defi-dex', new DexRecorder((code) => this.catalog.table(code) !== undefined), {
            pool: [1, 2],
            action: [2, 3],
            adjust: [2],
            transfer: [2],
            firstLiquidity: [3],
          });
        for (const adapter of DEX_ADAPTERS) adapter.register(registry, recorder);
        registry.blocksStart((blocks, ctx) =>
          readAheadPositions(blocks, ctx, { pools: tables.dex_pool, positions: tables.dex_position }),
        );
      },
      routes: (r) =>
        new DexRoutes(this.db, this.catalog, MarketUsdQuotes.reading(this.db.reader, this.catalog)).register(r),
      checks: () => ledgerChecks(this.db.reader, this.catalog, DEX_LEDGER),
    };
  }
}
