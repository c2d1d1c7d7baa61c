// Generated from tables.yaml by `npm run gen`: do not edit
// (test/framework/generated.test.ts checks it is current).
import { tableHandle } from '../../framework';

/** baking and endorsing rights and their use, one row per baker and cycle */
export type RightsRow = {
  /** unique row id (local to this table and instance) */
  row_id?: bigint | number;
  /** cycle */
  cycle: bigint | number;
  /** first height of the cycle */
  height: bigint | number;
  /** account row id of the baker */
  account_id: bigint | number;
  /** null when no node told the rights; bitset, bit i = baking right (round 0) for the cycle's i-th block */
  baking_rights?: string | Uint8Array | null;
  /** null when no node told the rights; bitset, bit i = endorsing right for the cycle's i-th block */
  endorsing_rights?: string | Uint8Array | null;
  /** bitset, bit i = baked the cycle's i-th block */
  blocks_baked: string | Uint8Array;
  /** bitset, bit i = endorsed the cycle's i-th block */
  blocks_endorsed: string | Uint8Array;
  /**
   * bitset, bit i = the baker committed to a seed nonce in the cycle's i-th block (its header has a seed_nonce_hash);
   * null on rows written before seeds were tracked
   */
  seeds_required?: string | Uint8Array | null;
  /**
   * bitset, bit i = the seed nonce of the cycle's i-th block was revealed (a seed_nonce_revelation of that level was
   * included); null on rows written before seeds were tracked
   */
  seeds_revealed?: string | Uint8Array | null;
  /** baker address */
  address: string;
  /** `cycle_address`, the row's unique key */
  row_key: string;
};

/** A rights row as read (CatalogRows): values as explorer objects show them. */
export type RightsRead = {
  row_id: number | bigint;
  cycle: number | bigint;
  height: number | bigint;
  account_id: number | bigint;
  baking_rights: string | null;
  endorsing_rights: string | null;
  blocks_baked: string;
  blocks_endorsed: string;
  seeds_required: string | null;
  seeds_revealed: string | null;
  address: string;
  row_key: string;
};

/**
 * balances of active bakers and their funded delegators at every stake snapshot (Paris+ the last block of each cycle;
 * before, every blocks_per_roll/stake_snapshot blocks, the one picked for rights marked is_selected)
 */
export type SnapshotRow = {
  /** unique row id (local to this table and instance) */
  row_id?: bigint | number;
  /** snapshot block height */
  height: bigint | number;
  /** cycle of the snapshot block */
  cycle: bigint | number;
  /**
   * the snapshot was selected for computing rights (Paris+ always; before, marked at the cycle end that picks it, as
   * the node tells; false without a node)
   */
  is_selected: boolean;
  /** snapshot block time */
  time: Date | number | string;
  /** snapshot index within the cycle (0 from Paris on) */
  index: bigint | number;
  /** rolls owned: staking balance / tokens_per_roll (Emmy bakers; 0 after rolls were removed) */
  rolls: bigint | number;
  /**
   * baking power: stake counted for rights, as the node reports it (Emmy: rolls × tokens_per_roll; Ithaca..Oxford: the
   * picked snapshot's rows only; bakers; null for delegators and without a node; tez)
   */
  active_stake?: bigint | null;
  /** account row id */
  account_id: bigint | number;
  /** account row id of the baker (itself for bakers) */
  baker_id?: bigint | number | null;
  /** the account is a baker */
  is_baker: boolean;
  /** the baker is active: true for bakers (the node's deactivated ones get no row), false for delegators */
  is_active: boolean;
  /**
   * own tez: bakers their spendable balance, own stake and own unstake requests; delegators their spendable balance and
   * unstake requests (tez)
   */
  balance: bigint;
  /** spendable and unstaked tez of the baker's funded delegators (bakers; tez) */
  delegated: bigint;
  /** the baker's own staked tez (bakers; null for delegators; tez) */
  own_stake?: bigint | null;
  /** the baker's own tez and its delegators': balance + delegated (bakers; null for delegators; tez) */
  staking_balance?: bigint | null;
  /** number of funded delegators (bakers) */
  n_delegations: bigint | number;
  /** delegators holding stake shares of the baker's staking pool (bakers; null for delegators) */
  n_stakers?: bigint | number | null;
  /**
   * last cycle the baker stays active without baking or attesting, as the node reports it (bakers; null for delegators
   * and without a node)
   */
  grace_period?: bigint | number | null;
  /** the baker's active consensus public key (bakers, Lima+; null for delegators and without a node) */
  consensus_key?: string | null;
  /** address of the active consensus key (bakers, Lima+) */
  consensus_address?: string | null;
  /** limit of external staking over the baker's own stake, millionths (bakers, Paris+) */
  staking_limit?: bigint | number | null;
  /** the baker's edge on its stakers' rewards, billionths (bakers, Paris+) */
  staking_edge?: bigint | number | null;
  /** height since which the account is a baker or delegates to its baker */
  since: bigint | number;
  /** account address */
  address: string;
  /** baker address */
  baker?: string | null;
  /** time of block since */
  since_time: Date | number | string;
  /** `cycle_address` (Paris+) or `cycle_index_address` (before), the row's unique key */
  row_key: string;
};

/** A snapshot row as read (CatalogRows): values as explorer objects show them. */
export type SnapshotRead = {
  row_id: number | bigint;
  height: number | bigint;
  cycle: number | bigint;
  is_selected: boolean;
  time: string;
  index: number | bigint;
  rolls: number | bigint;
  active_stake: number | null;
  account_id: number | bigint;
  baker_id: number | bigint | null;
  is_baker: boolean;
  is_active: boolean;
  balance: number;
  delegated: number;
  own_stake: number | null;
  staking_balance: number | null;
  n_delegations: number | bigint;
  n_stakers: number | bigint | null;
  grace_period: number | bigint | null;
  consensus_key: string | null;
  consensus_address: string | null;
  staking_limit: number | bigint | null;
  staking_edge: number | bigint | null;
  since: number | bigint;
  address: string;
  baker: string | null;
  since_time: string;
  row_key: string;
};

/** per-cycle baker income, efficiency and losses, one row per baker and cycle */
export type IncomeRow = {
  /** unique row id (local to this table and instance) */
  row_id?: bigint | number;
  /** cycle */
  cycle: bigint | number;
  /** account row id of the baker */
  account_id: bigint | number;
  /** rolls at the cycle's snapshot (0 after rolls were removed) */
  rolls?: bigint | number | null;
  /** own balance at the snapshot (tez) */
  balance?: bigint | null;
  /** delegated balance at the snapshot (tez) */
  delegated?: bigint | null;
  /** stake counted for rights at the snapshot (tez) */
  active_stake?: bigint | null;
  /** own balance and delegated balance at the snapshot (tez) */
  staking_balance?: bigint | null;
  /** own staked tez at the snapshot (tez) */
  own_stake?: bigint | null;
  /** delegators at the snapshot */
  n_delegations?: bigint | number | null;
  /** stakers at the snapshot */
  n_stakers?: bigint | number | null;
  /** baking rights (round 0) in the cycle */
  n_baking_rights?: bigint | number | null;
  /** endorsing slots in the cycle */
  n_endorsing_rights?: bigint | number | null;
  /** value of the rights received minus the value a fair share of the cycle's rights would have (tez) */
  luck?: bigint | null;
  /** value of the rights received in hundredths of a percent of the fair share's value (10000 = as fair) */
  luck_percent?: bigint | number | null;
  /** rights used in hundredths of a percent of the rights received (10000 = all) */
  contribution_percent?: bigint | number | null;
  /** income earned (minus accusation losses) in hundredths of a percent of the expected income (10000 = as expected) */
  performance_percent?: bigint | number | null;
  /** blocks baked (signed) */
  n_blocks_baked: bigint | number;
  /** block payloads proposed */
  n_blocks_proposed: bigint | number;
  /** round-0 baking rights missed */
  n_blocks_not_baked?: bigint | number | null;
  /** blocks endorsed */
  n_blocks_endorsed: bigint | number;
  /** blocks with endorsing rights not endorsed */
  n_blocks_not_endorsed?: bigint | number | null;
  /** endorsement slots used */
  n_slots_endorsed: bigint | number;
  /** seed nonce revelations included in its blocks (as the original: counted for the including baker) */
  n_seeds_revealed: bigint | number;
  /**
   * baker operations: the sum of the operation counters below (an accusation counts for the accuser and the offender)
   */
  n_baker_ops: bigint | number;
  /** proposals operations sent */
  n_proposals: bigint | number;
  /** ballots sent */
  n_ballots: bigint | number;
  /** (aggregated) attestations included, one per attester and operation */
  n_endorsements: bigint | number;
  /** (aggregated) preattestations included */
  n_preendorsements: bigint | number;
  /** seed nonce and VDF revelations included in its blocks */
  n_nonce_revelations: bigint | number;
  /** times denounced for double baking */
  n_double_bakings: bigint | number;
  /** times denounced for double (pre)attesting */
  n_double_endorsements: bigint | number;
  /** denunciations (double signing, DAL entrapment) it was rewarded for */
  n_accusations: bigint | number;
  /** successful set_deposits_limit operations */
  n_set_limits: bigint | number;
  /** successful update_consensus_key and update_companion_key operations */
  n_update_consensus_key: bigint | number;
  /** times drained by its consensus key (drain_delegate) */
  n_drain_delegate: bigint | number;
  /**
   * value of the rights received: round-0 blocks with their full bonus and attestation slots, at the cycle's reward
   * rates (tez)
   */
  expected_income?: bigint | null;
  /** total income earned (tez) */
  total_income: bigint;
  /** deposits frozen (tez) */
  total_deposits: bigint;
  /** baking rewards and bonuses (tez) */
  baking_income: bigint;
  /** endorsing rewards (tez) */
  endorsing_income: bigint;
  /** rewards for denouncing double signing (tez) */
  accusation_income: bigint;
  /** seed nonce revelation and VDF rewards (tez) */
  seed_income: bigint;
  /** fees collected (tez) */
  fees_income: bigint;
  /** total losses (tez) */
  total_loss: bigint;
  /** lost to double-signing penalties (tez) */
  accusation_loss: bigint;
  /** lost for missed seed nonce revelations (tez) */
  seed_loss: bigint;
  /** endorsing rewards lost for too low participation (tez) */
  endorsing_loss: bigint;
  /** fees lost to double-signing penalties (tez) */
  lost_accusation_fees: bigint;
  /** rewards lost to double-signing penalties (tez) */
  lost_accusation_rewards: bigint;
  /** deposits lost to double-signing penalties (tez) */
  lost_accusation_deposits: bigint;
  /** fees lost for missed seed nonce revelations (tez) */
  lost_seed_fees: bigint;
  /** rewards lost for missed seed nonce revelations (tez) */
  lost_seed_rewards: bigint;
  /** baker address */
  address: string;
  /** time of the cycle's first block (planned time while in the future) */
  start_time?: Date | number | string | null;
  /** time of the cycle's last block (null while the cycle is open) */
  end_time?: Date | number | string | null;
  /** `cycle_address`, the row's unique key */
  row_key: string;
};

/** A income row as read (CatalogRows): values as explorer objects show them. */
export type IncomeRead = {
  row_id: number | bigint;
  cycle: number | bigint;
  account_id: number | bigint;
  rolls: number | bigint | null;
  balance: number | null;
  delegated: number | null;
  active_stake: number | null;
  staking_balance: number | null;
  own_stake: number | null;
  n_delegations: number | bigint | null;
  n_stakers: number | bigint | null;
  n_baking_rights: number | bigint | null;
  n_endorsing_rights: number | bigint | null;
  luck: number | null;
  luck_percent: number | bigint | null;
  contribution_percent: number | bigint | null;
  performance_percent: number | bigint | null;
  n_blocks_baked: number | bigint;
  n_blocks_proposed: number | bigint;
  n_blocks_not_baked: number | bigint | null;
  n_blocks_endorsed: number | bigint;
  n_blocks_not_endorsed: number | bigint | null;
  n_slots_endorsed: number | bigint;
  n_seeds_revealed: number | bigint;
  n_baker_ops: number | bigint;
  n_proposals: number | bigint;
  n_ballots: number | bigint;
  n_endorsements: number | bigint;
  n_preendorsements: number | bigint;
  n_nonce_revelations: number | bigint;
  n_double_bakings: number | bigint;
  n_double_endorsements: number | bigint;
  n_accusations: number | bigint;
  n_set_limits: number | bigint;
  n_update_consensus_key: number | bigint;
  n_drain_delegate: number | bigint;
  expected_income: number | null;
  total_income: number;
  total_deposits: number;
  baking_income: number;
  endorsing_income: number;
  accusation_income: number;
  seed_income: number;
  fees_income: number;
  total_loss: number;
  accusation_loss: number;
  seed_loss: number;
  endorsing_loss: number;
  lost_accusation_fees: number;
  lost_accusation_rewards: number;
  lost_accusation_deposits: number;
  lost_seed_fees: number;
  lost_seed_rewards: number;
  address: string;
  start_time: string | null;
  end_time: string | null;
  row_key: string;
};

/** Typed handles of the baking tables: `ctx.append(tables.rights, row)`. */
export const tables = {
  rights: tableHandle<RightsRow, RightsRead>('rights'),
  snapshot: tableHandle<SnapshotRow, SnapshotRead>('snapshot'),
  income: tableHandle<IncomeRow, IncomeRead>('income'),
} as const;
