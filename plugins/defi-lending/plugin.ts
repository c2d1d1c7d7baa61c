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
import { MarketUsdQuotes, readAheadPositions } from '../../framework/defi';
import { LENDING_ADAPTERS } from './adapters';
import { LendRoutes } from './api/LendRoutes';
import { LendingRecorder } from './core/LendingRecorder';
import { tables } from './tables.generated';

/**
 * What `tzidx check defi` holds the lending tables to: nothing negative, closed positions closed. Balances
 * accrue interest between changes, so neither the positions' counters nor the market totals add up exactly:
 * those two checks are not declared here (docs/defi-lending.md).
 */
const LENDING_LEDGER: LedgerSpec = {
  family: 'defi',
  name: 'lend',
  holdings: {
    table: 'lend_position',
    key: 'position',
    group: 'pool',
    balance: 'balance',
    ledger: null,
    closed: { flag: 'is_closed', height: 'close_height', time: 'close_time', when: ['balance', 'debt'] },
    height: 'update_height',
    nonNegative: ['balance', 'debt', 'deposited', 'withdrawn', 'borrowed', 'repaid', 'liquidated', 'sent', 'received'],
  },
  groups: {
    table: 'lend_pool',
    key: 'pool',
    total: null,
    height: 'update_height',
    nonNegative: ['total_collateral', 'total_debt'],
  },
  events: {
    table: 'lend_event',
    group: 'pool',
    height: 'height',
    op: 'tx_hash',
    nonNegative: ['volume', 'debt', 'collateral', 'fee'],
  },
};

/** Lending pools, their events and positions. Its tables are declared in tables.yaml under `defi-lending`. */
@injectable()
export class DefiLendingPlugin implements TzidxPlugin {
  static readonly manifest: PluginManifest = {
    name: 'defi-lending',
    description: 'Lending pools, their events and positions',
    dependsOn: ['core-chain'],
  };

  constructor(
    private readonly db: Database,
    private readonly catalog: Catalog,
  ) {}

  /** Every adapter decodes its protocol's calls and reports them to one recorder. */
  setup(ctx: PluginContext): PluginContribution {
    return {
      handlers: (registry) => {
        const recorder = ctx.container
          .resolve(UndecodableValues)
          .guardIntegers('defi-lending', new LendingRecorder(), {
            market: [1, 2],
            action: [2, 3],
            account: [3, 4, 5],
            accrue: [2],
          });
        for (const adapter of LENDING_ADAPTERS) adapter.register(registry, recorder);
        registry.blocksStart((blocks, ctx) =>
          readAheadPositions(blocks, ctx, { pools: tables.lend_pool, positions: tables.lend_position }),
        );
      },
      // USD values as the DEX's: tez from the markets plugin, tokens through defi-dex's tez pools (null when either is
      // off).
      routes: (r) =>
        new LendRoutes(this.db, this.catalog, MarketUsdQuotes.reading(this.db.reader, this.catalog)).register(r),
      checks: () => ledgerChecks(this.db.reader, this.catalog, LENDING_LEDGER),
    };
  }
}
