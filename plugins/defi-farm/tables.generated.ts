// Generated from tables.yaml by `npm run gen`: do not edit
// (test/framework/generated.test.ts checks it is current).
import { tableHandle } from '../../framework';

/** staking farms (one row per contract and farm id) with their current stake and rewards left */
export type FarmPoolRow = {
  /** unique row id (local to this table and instance) */
  row_id?: bigint | number;
  /** farm address `KT1…_poolId` */
  pool: string;
  /** farm contract */
  contract: string;
  /** farm id inside the contract (0 for single-farm contracts) */
  pool_id: bigint | number;
  /** protocol family label */
  entity: string;
  /** farm name */
  name: string;
  /**
   * account that signed the farm creation, else the contract's originator; null when neither is known (contracts
   * created at genesis)
   */
  creator?: string | null;
  /** staked token: `tez` or `KT1…_tokenId` */
  stake_token: string;
  /** reward token: `tez` or `KT1…_tokenId` */
  reward_token: string;
  /** stake held by the farm after the last change (raw stake token units) */
  total_stake: bigint | number;
  /** rewards still to be paid out (raw); null when the contract does not tell */
  remaining_rewards?: bigint | number | null;
  /**
   * the contract's reward index after the last change, in index_precision (MasterChef farms: rewards per staked unit;
   * savings pools: stake tokens per share); the API brings positions' pending rewards to it. Null for farms without one
   */
  reward_index?: bigint | number | null;
  /** fixed-point scale of reward_index (10^18 for Quipuswap and Youves); null with it */
  index_precision?: bigint | number | null;
  /** owners with stake now */
  num_positions: bigint | number;
  /** start of the reward period; null when unknown */
  start_time?: Date | number | string | null;
  /** end of the reward period; null when unknown */
  end_time?: Date | number | string | null;
  /** height of the farm creation (or of the first indexed operation when the creation was not indexed) */
  first_height: bigint | number;
  /** time of first_height */
  first_time: Date | number | string;
  /** height of the latest change of this row */
  update_height: bigint | number;
};

/** A farm_pool row as read (CatalogRows): values as explorer objects show them. */
export type FarmPoolRead = {
  row_id: number | bigint;
  pool: string;
  contract: string;
  pool_id: number | bigint;
  entity: string;
  name: string;
  creator: string | null;
  stake_token: string;
  reward_token: string;
  total_stake: string;
  remaining_rewards: string | null;
  reward_index: string | null;
  index_precision: string | null;
  num_positions: number | bigint;
  start_time: string | null;
  end_time: string | null;
  first_height: number | bigint;
  first_time: string;
  update_height: number | bigint;
};

/** farm events (deposit, withdraw, transfer, claim, update) with the farm's stake and rewards after each */
export type FarmEventRow = {
  /** unique row id (local to this table and instance) */
  row_id?: bigint | number;
  /** farm address `KT1…_poolId` */
  pool: string;
  /** farm contract */
  contract: string;
  /** farm id inside the contract (0 for single-farm contracts) */
  pool_id: bigint | number;
  /** protocol family label */
  entity: string;
  /** what happened */
  event_type: 'deposit' | 'withdraw' | 'transfer' | 'claim' | 'update';
  /** staked token: `tez` or `KT1…_tokenId` */
  stake_token: string;
  /** reward token: `tez` or `KT1…_tokenId` */
  reward_token: string;
  /** stake moved (raw, absolute; withdrawals count what left the stake, fee included) */
  volume: bigint | number;
  /** rewards paid out (claims) or added (updates) (raw) */
  reward: bigint | number;
  /** fee taken in stake tokens (raw) */
  fee: bigint | number;
  /** fee in basis points of the volume (0 without a fee) */
  fee_bps: string | number;
  /**
   * the staking position's id: the stake lot touched where the contract has lots, else the position's stake_id; 0 for a
   * farm's own update; null only on rows indexed before stake ids were set
   */
  stake_id?: bigint | number | null;
  /** farm's total stake after the event (raw) */
  stake_supply: bigint | number;
  /** rewards left after the event (raw); null when the contract does not tell */
  reward_supply?: bigint | number | null;
  /** account that signed the operation group */
  signer: string;
  /** account that called the farm */
  sender: string;
  /** account that received the tokens (the staker) */
  receiver: string;
  /** operation group hash */
  tx_hash: string;
  /** fee paid by the group's signer for the operation (tez) */
  tx_fee: bigint;
  /** block height */
  height: bigint | number;
  /** block time */
  time: Date | number | string;
};

/** A farm_event row as read (CatalogRows): values as explorer objects show them. */
export type FarmEventRead = {
  row_id: number | bigint;
  pool: string;
  contract: string;
  pool_id: number | bigint;
  entity: string;
  event_type: 'deposit' | 'withdraw' | 'transfer' | 'claim' | 'update';
  stake_token: string;
  reward_token: string;
  volume: string;
  reward: string;
  fee: string;
  fee_bps: string;
  stake_id: number | bigint | null;
  stake_supply: string;
  reward_supply: string | null;
  signer: string;
  sender: string;
  receiver: string;
  tx_hash: string;
  tx_fee: number;
  height: number | bigint;
  time: string;
};

/** staking positions, one per farm and owner (closed when the stake is gone) */
export type FarmPositionRow = {
  /** unique row id (local to this table and instance) */
  row_id?: bigint | number;
  /** farm address `KT1…_poolId` */
  pool: string;
  /** farm contract */
  contract: string;
  /** farm id inside the contract (0 for single-farm contracts) */
  pool_id: bigint | number;
  /** protocol family label */
  entity: string;
  /** `{pool}:{owner}`, the position's unique key */
  position: string;
  /** staker */
  owner: string;
  /** staked token: `tez` or `KT1…_tokenId` */
  stake_token: string;
  /** reward token: `tez` or `KT1…_tokenId` */
  reward_token: string;
  /**
   * the position's id: the contract's id of the owner's latest stake lot where it has lots, else this row's row_id;
   * null until a row indexed before stake ids were set changes
   */
  stake_id?: bigint | number | null;
  /** stake held now (raw) */
  stake_balance: bigint | number;
  /** stake deposited so far (raw) */
  stake_deposited: bigint | number;
  /** stake withdrawn so far, fees included (raw) */
  stake_withdrawn: bigint | number;
  /** rewards paid to the owner so far (raw) */
  rewards_claimed: bigint | number;
  /**
   * rewards earned and not paid as of this position's latest change (raw); the API's rewards_pending is brought to the
   * farm's latest reward_index where the contract has one. Null unless the contract tells them
   */
  rewards_pending?: bigint | number | null;
  /**
   * MasterChef-style farms: the owner's unpaid earnings minus its reward debt, in the contract's precision (pending =
   * (reward_base + stake·farm index)/precision); null for other farms
   */
  reward_base?: bigint | number | null;
  /**
   * savings pools (the stake grows): the owner's shares, which the farm index values in stake tokens (Youves:
   * stakes[owner]; pending = shares·index/precision − stake); null for other farms
   */
  reward_shares?: bigint | number | null;
  /** the stake is gone */
  is_closed: boolean;
  /** height at which the position opened (last reopen) */
  open_height: bigint | number;
  /** time of open_height */
  open_time: Date | number | string;
  /** height at which the stake reached 0; null while open */
  close_height?: bigint | number | null;
  /** time of close_height */
  close_time?: Date | number | string | null;
  /** height of the latest change of this row */
  update_height: bigint | number;
};

/** A farm_position row as read (CatalogRows): values as explorer objects show them. */
export type FarmPositionRead = {
  row_id: number | bigint;
  pool: string;
  contract: string;
  pool_id: number | bigint;
  entity: string;
  position: string;
  owner: string;
  stake_token: string;
  reward_token: string;
  stake_id: number | bigint | null;
  stake_balance: string;
  stake_deposited: string;
  stake_withdrawn: string;
  rewards_claimed: string;
  rewards_pending: string | null;
  reward_base: string | null;
  reward_shares: string | null;
  is_closed: boolean;
  open_height: number | bigint;
  open_time: string;
  close_height: number | bigint | null;
  close_time: string | null;
  update_height: number | bigint;
};

/** Typed handles of the defi-farm tables: `ctx.append(tables.farm_pool, row)`. */
export const tables = {
  farm_pool: tableHandle<FarmPoolRow, FarmPoolRead>('farm_pool'),
  farm_event: tableHandle<FarmEventRow, FarmEventRead>('farm_event'),
  farm_position: tableHandle<FarmPositionRow, FarmPositionRead>('farm_position'),
} as const;
