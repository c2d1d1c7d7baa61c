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
import { FARM_ADAPTERS } from './adapters';
import { FarmRoutes } from './api/FarmRoutes';
import { FarmRecorder } from './core/FarmRecorder';
import { rewardsPaidCheck } from './core/RewardsCheck';
import { tables } from './tables.generated';

/**
 * What `tzidx check defi` holds the farm tables to: stakes add up to the farm's total, nothing negative,
 * positions closed exactly when nothing is staked or pending (plus rewards paid within funding, RewardsCheck).
 */
const FARM_LEDGER: LedgerSpec = {
  family: 'defi',
  name: 'farm',
  holdings: {
    table: 'farm_position',
    key: 'position',
    group: 'pool',
    balance: 'stake_balance',
    ledger: { plus: ['stake_deposited'], minus: ['stake_withdrawn'] },
    closed: {
      flag: 'is_closed',
      height: 'close_height',
      time: 'close_time',
      when: ['stake_balance', 'rewards_pending'],
    },
    height: 'update_height',
    nonNegative: ['stake_balance', 'stake_deposited', 'stake_withdrawn', 'rewards_claimed', 'rewards_pending'],
  },
  groups: {
    table: 'farm_pool',
    key: 'pool',
    total: 'total_stake',
    height: 'update_height',
    nonNegative: ['total_stake', 'remaining_rewards'],
  },
  events: {
    table: 'farm_event',
    group: 'pool',
    height: 'height',
    op: 'tx_hash',
    nonNegative: ['volume', 'reward', 'fee', 'stake_supply', 'reward_supply'],
  },
};

/** Staking farms, their events and positions. Its tables are declared in tables.yaml under `defi-farm`. */
@injectable()
export class DefiFarmPlugin implements TzidxPlugin {
  static readonly manifest: PluginManifest = {
    name: 'defi-farm',
    description: 'Staking farms, their events and positions',
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
          .guardIntegers('defi-farm', new FarmRecorder(), { farm: [1, 2], action: [2, 3] });
        for (const adapter of FARM_ADAPTERS) adapter.register(registry, recorder);
        registry.blocksStart((blocks, ctx) =>
          readAheadPositions(blocks, ctx, { pools: tables.farm_pool, positions: tables.farm_position }),
        );
      },
      // USD values as the DEX's: tez from the markets plugin, tokens through defi-dex's tez pools (null when either is
      // off).
      routes: (r) =>
        new FarmRoutes(this.db, this.catalog, MarketUsdQuotes.reading(this.db.reader, this.catalog)).register(r),
      checks: () => [
        ...ledgerChecks(this.db.reader, this.catalog, FARM_LEDGER),
        rewardsPaidCheck(this.db.reader, this.catalog),
      ],
    };
  }
}
