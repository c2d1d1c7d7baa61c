import {
  type TextRow,
  positionLifeFields,
  sameNamed,
  sidedEventRecord,
  sidedPoolFields,
  sidedRowFields,
  type SidedPool,
  type UsdPrices,
} from '../../../framework/defi';
import { currentPending } from '../PendingRewards';

/**
 * Farm rows as the SDK's defi.Farm, defi.FarmEvent and defi.FarmPosition. USD values are read-time
 * values (current prices, as the DEX's liquidity and position values), null without a price path;
 * values the contract does not tell (remaining rewards, stake ids, pending rewards) are null, which
 * Go decodes as zero.
 */

/** A farm names a stake and a reward token: the DeFi core's two-sided pool book serves it unchanged. */
export type FarmInfo = SidedPool<'stake' | 'reward'>;

export async function farmRecord(farm: FarmInfo, usd: UsdPrices): Promise<Record<string, unknown>> {
  const r = farm.row;
  return {
    ...sidedPoolFields(farm),
    ...sameNamed(r, ['total_stake', 'remaining_rewards']),
    num_positions: Number(r.num_positions),
    // Optional in the SDK (omitempty): left out while unknown.
    ...(r.start_time ? { start_time: r.start_time } : {}),
    ...(r.end_time ? { end_time: r.end_time } : {}),
    ...(await farm.valuesUsd(usd, {
      stake_value_usd: ['stake', r.total_stake],
      rewards_value_usd: ['reward', r.remaining_rewards],
    })),
  };
}

export const farmEventRecord = sidedEventRecord<'stake' | 'reward'>([
  'event_type',
  'volume',
  'reward',
  'fee',
  'fee_bps',
  'stake_supply',
  'reward_supply',
]);

/**
 * Stake at the stake token's price; pending and claimed rewards at the reward token's current price.
 * Pending rewards are brought to the farm's latest index here (PendingRewards.ts), not stored per call.
 */
export async function farmPositionRecord(r: TextRow, farm: FarmInfo, usd: UsdPrices): Promise<Record<string, unknown>> {
  const pending = currentPending(r, farm.row);
  const rewardsPending = pending === null ? null : pending.toString();
  return {
    ...sidedRowFields(r, farm),
    owner: r.owner,
    total_stake: farm.row.total_stake,
    ...sameNamed(r, ['stake_balance', 'stake_deposited', 'stake_withdrawn', 'rewards_claimed']),
    rewards_pending: rewardsPending,
    ...positionLifeFields(r),
    ...(await farm.valuesUsd(usd, {
      value_usd: ['stake', r.stake_balance],
      pending_usd: ['reward', rewardsPending],
      claimed_usd: ['reward', r.rewards_claimed],
    })),
  };
}
