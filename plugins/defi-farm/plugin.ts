import * as path from 'node:path';
import { defiPlugin, sidedRoutes } from '../../framework/defi';
import { FARM_ROUTES } from './api/FarmRoutes';
import type { FarmSink } from './core/FarmAdapter';
import { FarmRecorder } from './core/FarmRecorder';
import { rewardsPaidCheck } from './core/RewardsCheck';

/** Its protocols, one folder each (`adapters/<protocol>/adapter.ts`), found at load: no list to keep. */
export const FARM_ADAPTERS_DIR = path.join(__dirname, 'adapters');

/** Staking farms, their events and positions. Its tables are declared in tables.yaml under `defi-farm`. */
export const DefiFarmPlugin = defiPlugin<FarmSink>('defi-farm', 'Staking farms, their events and positions', {
  recorder: FarmRecorder,
  adapterRoots: [FARM_ADAPTERS_DIR],
  routes: sidedRoutes(FARM_ROUTES),
  checks: [rewardsPaidCheck],
  // What `tzidx check defi` holds the farm tables to: stakes add up to the farm's total, nothing negative,
  // positions closed exactly when nothing is staked or pending (plus rewards paid within funding, RewardsCheck).
  ledger: {
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
  },
});
