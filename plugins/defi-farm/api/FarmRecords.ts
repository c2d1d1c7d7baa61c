import { ZERO_TIME } from '../../../framework';
import type { TextRow } from '../../defi-dex/api/DexTable';
import type { FarmInfo } from './FarmBook';

/**
 * Farm rows as the SDK's defi.Farm, defi.FarmEvent and defi.FarmPosition. USD values are null (no
 * price source for farm tokens yet); values the contract does not tell (remaining rewards, stake
 * ids, pending rewards) are null, which Go decodes as zero.
 */

export function farmRecord(farm: FarmInfo): Record<string, unknown> {
  const r = farm.row;
  return {
    id: Number(r.row_id),
    pool: farm.address,
    contract: r.contract,
    pool_id: Number(r.pool_id),
    creator: r.creator ?? '',
    name: r.name,
    entity: r.entity,
    stake_token: farm.token('stake'),
    reward_token: farm.token('reward'),
    first_block: Number(r.first_height),
    first_time: r.first_time ?? ZERO_TIME,
    tags: [],
    total_stake: r.total_stake,
    remaining_rewards: r.remaining_rewards,
    num_positions: Number(r.num_positions),
    // Optional in the SDK (omitempty): left out while unknown.
    ...(r.start_time ? { start_time: r.start_time } : {}),
    ...(r.end_time ? { end_time: r.end_time } : {}),
    stake_value_usd: null,
    rewards_value_usd: null,
  };
}

export function farmEventRecord(r: TextRow, farm: FarmInfo): Record<string, unknown> {
  return {
    id: Number(r.row_id),
    pool: farm.address,
    ...farm.common,
    event_type: r.event_type,
    volume: r.volume,
    reward: r.reward,
    fee: r.fee,
    fee_bps: r.fee_bps,
    stake_id: r.stake_id === null ? null : Number(r.stake_id),
    stake_supply: r.stake_supply,
    reward_supply: r.reward_supply,
    signer: r.signer,
    sender: r.sender,
    receiver: r.receiver,
    tx_hash: r.tx_hash,
    tx_fee: r.tx_fee,
    block: Number(r.height),
    time: r.time,
  };
}

export function farmPositionRecord(r: TextRow, farm: FarmInfo): Record<string, unknown> {
  return {
    id: Number(r.row_id),
    pool: farm.address,
    ...farm.common,
    owner: r.owner,
    total_stake: farm.row.total_stake,
    stake_id: r.stake_id === null ? null : Number(r.stake_id),
    stake_balance: r.stake_balance,
    stake_deposited: r.stake_deposited,
    stake_withdrawn: r.stake_withdrawn,
    rewards_claimed: r.rewards_claimed,
    rewards_pending: r.rewards_pending,
    is_closed: r.is_closed === 'true',
    open_block: Number(r.open_height),
    open_time: r.open_time,
    ...(r.close_height === null ? {} : { close_block: Number(r.close_height), close_time: r.close_time }),
    value_usd: null,
    pending_usd: null,
    claimed_usd: null,
  };
}
