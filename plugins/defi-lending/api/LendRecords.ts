import { ZERO_TIME } from '../../../framework';
import type { TextRow } from '../../defi-dex/api/DexTable';
import type { LendInfo } from './LendBook';

/**
 * Lending rows as the SDK's defi.LendingPool, defi.LendingEvent and defi.LendingPosition. USD values
 * are null (no price source for lending tokens yet); values the contract does not tell (interest,
 * stake ids) are null, which Go decodes as zero.
 */

export function lendPoolRecord(pool: LendInfo): Record<string, unknown> {
  const r = pool.row;
  return {
    id: Number(r.row_id),
    pool: pool.address,
    contract: r.contract,
    pool_id: Number(r.pool_id),
    creator: r.creator ?? '',
    name: r.name,
    entity: r.entity,
    debt_token: pool.token('debt'),
    collateral_token: pool.token('collateral'),
    first_block: Number(r.first_height),
    first_time: r.first_time ?? ZERO_TIME,
    tags: [],
    total_collateral: r.total_collateral,
    total_debt: r.total_debt,
    num_deposits: Number(r.num_deposits),
    num_borrows: Number(r.num_borrows),
    collateral_value_usd: null,
    debt_value_usd: null,
  };
}

export function lendEventRecord(r: TextRow, pool: LendInfo): Record<string, unknown> {
  return {
    id: Number(r.row_id),
    pool: pool.address,
    ...pool.common,
    event_type: r.event_type,
    owner: r.owner,
    stake_id: r.stake_id === null ? null : Number(r.stake_id),
    volume: r.volume,
    debt: r.debt,
    collateral: r.collateral,
    fee: r.fee,
    interest: r.interest,
    signer: r.signer,
    sender: r.sender,
    receiver: r.receiver,
    tx_hash: r.tx_hash,
    tx_fee: r.tx_fee,
    block: Number(r.height),
    time: r.time,
  };
}

export function lendPositionRecord(r: TextRow, pool: LendInfo): Record<string, unknown> {
  return {
    id: Number(r.row_id),
    pool: pool.address,
    ...pool.common,
    owner: r.owner,
    stake_id: r.stake_id === null ? null : Number(r.stake_id),
    balance: r.balance,
    debt: r.debt,
    deposited: r.deposited,
    withdrawn: r.withdrawn,
    borrowed: r.borrowed,
    repaid: r.repaid,
    liquidated: r.liquidated,
    sent: r.sent,
    received: r.received,
    interest_earned: r.interest_earned,
    interest_paid: r.interest_paid,
    interest_pending: r.interest_pending,
    is_collateral: r.is_collateral === null ? null : r.is_collateral === 'true',
    is_closed: r.is_closed === 'true',
    open_block: Number(r.open_height),
    open_time: r.open_time,
    ...(r.close_height === null ? {} : { close_block: Number(r.close_height), close_time: r.close_time }),
    position_value_usd: null,
    interest_pending_usd: null,
  };
}
