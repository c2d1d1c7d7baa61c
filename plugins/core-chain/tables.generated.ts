// Generated from tables.yaml by `npm run gen`: do not edit
// (test/framework/generated.test.ts checks it is current).
import { tableHandle } from '../../framework';

/** most recent state and running statistics of every account */
export type AccountRow = {
  /** unique row id (local to this table and instance); the account id used by *_id columns */
  row_id?: bigint | number;
  /** account address */
  address: string;
  /** address kind (tz1, tz2, tz3, KT1, btz1, tz4, txr1, sr1) */
  address_type: 'ed25519' | 'secp256k1' | 'p256' | 'contract' | 'blinded' | 'bls12_381' | 'tx_rollup' | 'smart_rollup';
  /** revealed public key; null before reveal */
  pubkey?: string | null;
  /** last used manager counter */
  counter: bigint | number;
  /** account row id of the current baker; null when not delegated */
  baker_id?: bigint | number | null;
  /** account row id of the originator (contracts only) */
  creator_id?: bigint | number | null;
  /** height of the first incoming transaction */
  first_in?: bigint | number | null;
  /** height of the first outgoing transaction */
  first_out?: bigint | number | null;
  /** height of the latest incoming transaction */
  last_in?: bigint | number | null;
  /** height of the latest outgoing transaction */
  last_out?: bigint | number | null;
  /** height at which the account first appeared */
  first_seen: bigint | number;
  /** height at which the account was last touched */
  last_seen: bigint | number;
  /** height of the current delegation; null when not delegated */
  delegated_since?: bigint | number | null;
  /** tez received so far (tez) */
  total_received: bigint;
  /** tez sent so far (tez) */
  total_sent: bigint;
  /** tez burned so far (tez) */
  total_burned: bigint;
  /** fees paid so far (tez) */
  total_fees_paid: bigint;
  /** fees paid by calls to this contract (tez) */
  total_fees_used: bigint;
  /** fundraiser balance not activated yet (blinded accounts; tez) */
  unclaimed_balance: bigint;
  /** current spendable balance (tez) */
  spendable_balance: bigint;
  /** current rollup bond (tez) */
  frozen_bond: bigint;
  /** rollup bonds lost to penalties (tez) */
  lost_bond: bigint;
  /** balance is non-zero */
  is_funded: boolean;
  /** fundraiser account was activated */
  is_activated: boolean;
  /** delegates to a baker */
  is_delegated: boolean;
  /** public key is revealed */
  is_revealed: boolean;
  /** registered as baker */
  is_baker: boolean;
  /** smart contract */
  is_contract: boolean;
  /** successful outgoing operations */
  n_tx_success: bigint | number;
  /** failed outgoing operations */
  n_tx_failed: bigint | number;
  /** incoming transactions */
  n_tx_in: bigint | number;
  /** outgoing transactions */
  n_tx_out: bigint | number;
  /** current baker address; null when not delegated */
  baker?: string | null;
  /** originator address (contracts only) */
  creator?: string | null;
  /** time of block first_seen */
  first_seen_time: Date | number | string;
  /** time of block last_seen */
  last_seen_time: Date | number | string;
  /** time of block first_in */
  first_in_time?: Date | number | string | null;
  /** time of block last_in */
  last_in_time?: Date | number | string | null;
  /** time of block first_out */
  first_out_time?: Date | number | string | null;
  /** time of block last_out */
  last_out_time?: Date | number | string | null;
  /** time of block delegated_since */
  delegated_since_time?: Date | number | string | null;
  /**
   * own staked tez (a baker's own and edge stake; Tenderbake frozen deposits). Null for external stakers: their tez are
   * a share of their baker's pool that changes with every reward (`stake_shares` of the baker's `staker_pool`; the
   * explorer account has the amount)
   */
  staked_balance?: bigint | null;
  /** unstaked tez not finalized yet (frozen and finalizable requests; tez) */
  unstaked_balance: bigint;
  /**
   * staked and unstaked tez lost to slashing: a baker's own stake, a staker's unstake requests (a staker's share of a
   * slashed pool shows in its pool share; tez)
   */
  lost_stake: bigint;
  /** frozen rewards (Emmy bakers, until unfrozen; tez) */
  frozen_rewards: bigint;
  /** staking pseudotokens held with the current baker (external stakers, Paris+) */
  stake_shares: bigint | number;
  /** tez staked with this baker by external stakers (bakers; tez) */
  staker_pool: bigint;
  /** staking pseudotokens of all external stakers of this baker (bakers) */
  stake_shares_total: bigint | number;
  /** holds own stake or staking pseudotokens */
  is_staked: boolean;
};

/** A account row as read (CatalogRows): values as explorer objects show them. */
export type AccountRead = {
  row_id: number | bigint;
  address: string;
  address_type: 'ed25519' | 'secp256k1' | 'p256' | 'contract' | 'blinded' | 'bls12_381' | 'tx_rollup' | 'smart_rollup';
  pubkey: string | null;
  counter: number | bigint;
  baker_id: number | bigint | null;
  creator_id: number | bigint | null;
  first_in: number | bigint | null;
  first_out: number | bigint | null;
  last_in: number | bigint | null;
  last_out: number | bigint | null;
  first_seen: number | bigint;
  last_seen: number | bigint;
  delegated_since: number | bigint | null;
  total_received: number;
  total_sent: number;
  total_burned: number;
  total_fees_paid: number;
  total_fees_used: number;
  unclaimed_balance: number;
  spendable_balance: number;
  frozen_bond: number;
  lost_bond: number;
  is_funded: boolean;
  is_activated: boolean;
  is_delegated: boolean;
  is_revealed: boolean;
  is_baker: boolean;
  is_contract: boolean;
  n_tx_success: number | bigint;
  n_tx_failed: number | bigint;
  n_tx_in: number | bigint;
  n_tx_out: number | bigint;
  baker: string | null;
  creator: string | null;
  first_seen_time: string;
  last_seen_time: string;
  first_in_time: string | null;
  last_in_time: string | null;
  first_out_time: string | null;
  last_out_time: string | null;
  delegated_since_time: string | null;
  staked_balance: number | null;
  unstaked_balance: number;
  lost_stake: number;
  frozen_rewards: number;
  stake_shares: number | bigint;
  staker_pool: number;
  stake_shares_total: number | bigint;
  is_staked: boolean;
  frozen_rollup_bond: number;
  lost_rollup_bond: number;
};

/** historic end-of-block balances for all accounts (one row per account and block in which its balance changed) */
export type BalanceRow = {
  /** unique row id (local to this table and instance) */
  row_id?: bigint | number;
  /** account row id */
  account_id: bigint | number;
  /** account balance at the end of block valid_from (tez) */
  balance: bigint;
  /** height of the block from whose end on the balance holds */
  valid_from: bigint | number;
  /** account address */
  address: string;
  /** time of block valid_from */
  valid_from_time: Date | number | string;
};

/** A balance row as read (CatalogRows): values as explorer objects show them. */
export type BalanceRead = {
  row_id: number | bigint;
  account_id: number | bigint;
  balance: number;
  valid_from: number | bigint;
  address: string;
  valid_from_time: string;
};

/** running blockchain totals, one row per block */
export type ChainRow = {
  /** unique row id (local to this table and instance) */
  row_id?: bigint | number;
  /** block height */
  height: bigint | number;
  /** block cycle */
  cycle: bigint | number;
  /** block time */
  time: Date | number | string;
  /** implicit (tz…) accounts seen so far */
  total_accounts: bigint | number;
  /** smart contracts originated so far */
  total_contracts: bigint | number;
  /** rollups of any kind originated so far */
  total_rollups: bigint | number;
  /** successful operations so far (events excluded) */
  total_ops: bigint | number;
  /** failed operations so far */
  total_ops_failed: bigint | number;
  /** successful operations targeting a smart contract so far */
  total_contract_ops: bigint | number;
  /** successful external smart contract calls with parameters so far */
  total_contract_calls: bigint | number;
  /** successful rollup operations so far */
  total_rollup_calls: bigint | number;
  /** successful fundraiser account activations so far */
  total_activations: bigint | number;
  /** successful seed nonce revelations so far */
  total_nonce_revelations: bigint | number;
  /** successful endorsements (attestations) so far */
  total_endorsements: bigint | number;
  /** successful preendorsements (preattestations) so far */
  total_preendorsements: bigint | number;
  /** successful double baking evidences so far */
  total_double_bakings: bigint | number;
  /** successful double (pre)endorsement evidences so far */
  total_double_endorsements: bigint | number;
  /** successful delegations so far */
  total_delegations: bigint | number;
  /** successful reveals so far */
  total_reveals: bigint | number;
  /** successful originations so far */
  total_originations: bigint | number;
  /** successful transactions so far */
  total_transactions: bigint | number;
  /** successful proposals operations so far */
  total_proposals: bigint | number;
  /** successful ballots so far */
  total_ballots: bigint | number;
  /** global constants registered so far */
  total_constants: bigint | number;
  /** successful set_deposits_limit operations so far */
  total_set_limits: bigint | number;
  /** contract storage bytes paid for so far */
  total_storage_bytes: bigint | number;
  /** successful transfer_ticket operations so far */
  total_ticket_transfers: bigint | number;
  /** accounts with a non-zero balance */
  funded_accounts: bigint | number;
  /** accounts with a balance above zero and below 1 tez */
  dust_accounts: bigint | number;
  /** implicit accounts that appeared (e.g. as token owners) but were never funded */
  ghost_accounts: bigint | number;
  /** fundraiser accounts not activated yet */
  unclaimed_accounts: bigint | number;
  /** funded accounts delegating to a baker */
  total_delegators: bigint | number;
  /** delegators of active bakers */
  active_delegators: bigint | number;
  /** delegators of inactive bakers */
  inactive_delegators: bigint | number;
  /** delegators with a balance below 1 tez */
  dust_delegators: bigint | number;
  /** registered bakers (active and inactive) */
  total_bakers: bigint | number;
  /** active bakers */
  active_bakers: bigint | number;
  /** inactive bakers */
  inactive_bakers: bigint | number;
  /** active bakers with zero staking balance */
  zero_bakers: bigint | number;
  /** active bakers without delegators */
  self_bakers: bigint | number;
  /** active bakers with exactly one delegator */
  single_bakers: bigint | number;
  /** active bakers with more than one delegator */
  multi_bakers: bigint | number;
  /** rolls of all active bakers (staking balance / tokens per roll; 0 after rolls were removed) */
  rolls: bigint | number;
  /** bakers owning at least one roll */
  roll_owners: bigint | number;
  /** accounts staking with an active baker; null: baker activity (active or not) is not tracked yet */
  active_stakers?: bigint | number | null;
  /** accounts staking with an inactive baker; null: baker activity (active or not) is not tracked yet */
  inactive_stakers?: bigint | number | null;
};

/** A chain row as read (CatalogRows): values as explorer objects show them. */
export type ChainRead = {
  row_id: number | bigint;
  height: number | bigint;
  cycle: number | bigint;
  time: string;
  total_accounts: number | bigint;
  total_contracts: number | bigint;
  total_rollups: number | bigint;
  total_ops: number | bigint;
  total_ops_failed: number | bigint;
  total_contract_ops: number | bigint;
  total_contract_calls: number | bigint;
  total_rollup_calls: number | bigint;
  total_activations: number | bigint;
  total_nonce_revelations: number | bigint;
  total_endorsements: number | bigint;
  total_preendorsements: number | bigint;
  total_double_bakings: number | bigint;
  total_double_endorsements: number | bigint;
  total_delegations: number | bigint;
  total_reveals: number | bigint;
  total_originations: number | bigint;
  total_transactions: number | bigint;
  total_proposals: number | bigint;
  total_ballots: number | bigint;
  total_constants: number | bigint;
  total_set_limits: number | bigint;
  total_storage_bytes: number | bigint;
  total_ticket_transfers: number | bigint;
  funded_accounts: number | bigint;
  dust_accounts: number | bigint;
  ghost_accounts: number | bigint;
  unclaimed_accounts: number | bigint;
  total_delegators: number | bigint;
  active_delegators: number | bigint;
  inactive_delegators: number | bigint;
  dust_delegators: number | bigint;
  total_bakers: number | bigint;
  active_bakers: number | bigint;
  inactive_bakers: number | bigint;
  zero_bakers: number | bigint;
  self_bakers: number | bigint;
  single_bakers: number | bigint;
  multi_bakers: number | bigint;
  rolls: number | bigint;
  roll_owners: number | bigint;
  active_stakers: number | bigint | null;
  inactive_stakers: number | bigint | null;
  eligible_bakers: number | bigint;
};

/** running tez supply totals, one row per block */
export type SupplyRow = {
  /** unique row id (local to this table and instance) */
  row_id?: bigint | number;
  /** block height */
  height: bigint | number;
  /** block cycle */
  cycle: bigint | number;
  /** block time */
  time: Date | number | string;
  /** total supply including unclaimed fundraiser funds (tez) */
  total: bigint;
  /** fundraiser supply activated so far (tez) */
  activated: bigint;
  /** fundraiser supply not activated yet (tez) */
  unclaimed: bigint;
  /** total minus unclaimed (frozen funds count as circulating; tez) */
  circulating: bigint;
  /** total minus frozen minus unclaimed (tez) */
  liquid: bigint;
  /** balances delegated to bakers (tez) */
  delegated: bigint;
  /** staking balance of all bakers: own plus delegated (tez) */
  staking: bigint;
  /** tez held in sapling shielded pools (tez) */
  shielded: bigint;
  /** stake of active bakers counted for rights (tez) */
  active_stake: bigint;
  /** balances delegated to active bakers (tez) */
  active_delegated: bigint;
  /** staking balance of active bakers (tez) */
  active_staking: bigint;
  /** balances delegated to inactive bakers (tez) */
  inactive_delegated: bigint;
  /** staking balance of inactive bakers (tez) */
  inactive_staking: bigint;
  /** tez minted so far (tez) */
  minted: bigint;
  /** minted as baking rewards and bonuses (tez) */
  minted_baking: bigint;
  /** minted as endorsing rewards (tez) */
  minted_endorsing: bigint;
  /** minted as seed nonce revelation rewards (tez) */
  minted_seeding: bigint;
  /** minted by invoices and airdrops at protocol upgrades (tez) */
  minted_airdrop: bigint;
  /** minted as liquidity baking subsidy (tez) */
  minted_subsidy: bigint;
  /** tez burned so far (tez) */
  burned: bigint;
  /** burned by double baking penalties (tez) */
  burned_double_baking: bigint;
  /** burned by double (pre)endorsement penalties (tez) */
  burned_double_endorse: bigint;
  /** burned for originations (tez) */
  burned_origination: bigint;
  /** burned for allocating new implicit accounts (tez) */
  burned_allocation: bigint;
  /** burned for missed seed nonce revelations (seed slash; tez) */
  burned_seed_miss: bigint;
  /** burned for paid storage of originations, transactions and constants (tez) */
  burned_storage: bigint;
  /** burned by transfers to the burn address (tez) */
  burned_explicit: bigint;
  /** endorsing rewards lost for too low participation (tez) */
  burned_absence: bigint;
  /** burned by rollup operations (tez) */
  burned_rollup: bigint;
  /** all frozen tez: deposits, rewards, fees and bonds (tez) */
  frozen: bigint;
  /** frozen baker deposits (tez) */
  frozen_deposits: bigint;
  /** frozen rewards (before Ithaca; tez) */
  frozen_rewards: bigint;
  /** frozen fees (before Ithaca; tez) */
  frozen_fees: bigint;
  /** frozen rollup bonds (tez) */
  frozen_bonds: bigint;
};

/** A supply row as read (CatalogRows): values as explorer objects show them. */
export type SupplyRead = {
  row_id: number | bigint;
  height: number | bigint;
  cycle: number | bigint;
  time: string;
  total: number;
  activated: number;
  unclaimed: number;
  circulating: number;
  liquid: number;
  delegated: number;
  staking: number;
  shielded: number;
  active_stake: number;
  active_delegated: number;
  active_staking: number;
  inactive_delegated: number;
  inactive_staking: number;
  minted: number;
  minted_baking: number;
  minted_endorsing: number;
  minted_seeding: number;
  minted_airdrop: number;
  minted_subsidy: number;
  burned: number;
  burned_double_baking: number;
  burned_double_endorse: number;
  burned_origination: number;
  burned_allocation: number;
  burned_seed_miss: number;
  burned_storage: number;
  burned_explicit: number;
  burned_absence: number;
  burned_rollup: number;
  frozen: number;
  frozen_deposits: number;
  frozen_rewards: number;
  frozen_fees: number;
  frozen_bonds: number;
};

/** blocks, including orphans (listed when a filter is on is_orphan, as /series/block counts them) */
export type BlockRow = {
  /** unique row id (local to this table and instance) */
  row_id?: bigint | number;
  /** row id of the predecessor block; null for genesis */
  parent_id?: bigint | number | null;
  /** block hash */
  hash: string;
  /** block height (level) */
  height: bigint | number;
  /** cycle the block belongs to */
  cycle: bigint | number;
  /** the block is the cycle's selected stake snapshot */
  is_cycle_snapshot: boolean;
  /** block timestamp */
  time: Date | number | string;
  /** seconds since the predecessor block */
  solvetime: bigint | number;
  /** protocol version number (e.g. 17 for Nairobi) */
  version: bigint | number;
  /** Tenderbake round (priority before Ithaca) */
  round: bigint | number;
  /** first 8 bytes of the header proof-of-work nonce */
  nonce: string | Uint8Array;
  /** kind of the voting period the block belongs to */
  voting_period_kind: 'proposal' | 'exploration' | 'cooldown' | 'promotion' | 'adoption';
  /** account row id of the baker (who signed the block); null for genesis */
  baker_id?: bigint | number | null;
  /** account row id of the payload proposer (equals the baker before Ithaca); null for genesis */
  proposer_id?: bigint | number | null;
  /** endorsement slots that endorsed this block (included in the next block) */
  n_endorsed_slots: bigint | number;
  /** successful operations (events excluded) */
  n_ops_applied: bigint | number;
  /** failed operations */
  n_ops_failed: bigint | number;
  /** successful external smart contract calls */
  n_calls: bigint | number;
  /** successful rollup operations */
  n_rollup_calls: bigint | number;
  /** implicit events (bake, rewards, unfreeze, migration…) */
  n_events: bigint | number;
  /** successful external transactions */
  n_tx: bigint | number;
  /** ticket transfers and updates */
  n_tickets: bigint | number;
  /** tez moved by transactions, originations and activations (tez) */
  volume: bigint;
  /** operation fees paid (tez) */
  fee: bigint;
  /** baking reward and bonus (tez) */
  reward: bigint;
  /** baker deposit frozen for this block (tez) */
  deposit: bigint;
  /** fundraiser supply activated (tez) */
  activated_supply: bigint;
  /** tez burned (tez) */
  burned_supply: bigint;
  /** tez minted (tez) */
  minted_supply: bigint;
  /** accounts touched */
  n_accounts: bigint | number;
  /** accounts seen for the first time */
  n_new_accounts: bigint | number;
  /** smart contracts originated */
  n_new_contracts: bigint | number;
  /** accounts whose balance became zero */
  n_cleared_accounts: bigint | number;
  /** accounts whose balance became non-zero */
  n_funded_accounts: bigint | number;
  /** sum of operation gas limits (gas units) */
  gas_limit: bigint | number;
  /** sum of gas consumed by operations (gas units) */
  gas_used: bigint | number;
  /** contract storage bytes paid for */
  storage_paid: bigint | number;
  /** baker's liquidity baking toggle vote; null before Granada */
  lb_esc_vote?: 'on' | 'off' | 'pass' | null;
  /** liquidity baking toggle exponential moving average; null before Granada */
  lb_esc_ema?: bigint | number | null;
  /** baker's adaptive issuance vote; null before Oxford */
  ai_vote?: 'on' | 'off' | 'pass' | null;
  /** adaptive issuance vote exponential moving average; null before Oxford */
  ai_ema?: bigint | number | null;
  /** account row id of the consensus key that signed the payload; null when no key applies */
  proposer_consensus_key_id?: bigint | number | null;
  /** account row id of the consensus key that signed the block; null when no key applies */
  baker_consensus_key_id?: bigint | number | null;
  /** percent of touched accounts that existed before (0…100; 0 when none) */
  pct_account_reuse: number;
  /** baker address; null for genesis */
  baker?: string | null;
  /** payload proposer address; null for genesis */
  proposer?: string | null;
  /** protocol the block was validated with */
  protocol: string;
  /** address (key hash) of the proposer's consensus key */
  proposer_consensus_key?: string | null;
  /** address (key hash) of the baker's consensus key */
  baker_consensus_key?: string | null;
  /** hash of the predecessor block; null for genesis */
  predecessor?: string | null;
  /**
   * true once a reorg took the block off the main chain (set by the framework's rollback); without a filter on this
   * column only main-chain blocks are listed
   */
  is_orphan?: boolean;
};

/** A block row as read (CatalogRows): values as explorer objects show them. */
export type BlockRead = {
  row_id: number | bigint;
  parent_id: number | bigint | null;
  hash: string;
  height: number | bigint;
  cycle: number | bigint;
  is_cycle_snapshot: boolean;
  time: string;
  solvetime: number | bigint;
  version: number | bigint;
  round: number | bigint;
  nonce: string;
  voting_period_kind: 'proposal' | 'exploration' | 'cooldown' | 'promotion' | 'adoption';
  baker_id: number | bigint | null;
  proposer_id: number | bigint | null;
  n_endorsed_slots: number | bigint;
  n_ops_applied: number | bigint;
  n_ops_failed: number | bigint;
  n_calls: number | bigint;
  n_rollup_calls: number | bigint;
  n_events: number | bigint;
  n_tx: number | bigint;
  n_tickets: number | bigint;
  volume: number;
  fee: number;
  reward: number;
  deposit: number;
  activated_supply: number;
  burned_supply: number;
  minted_supply: number;
  n_accounts: number | bigint;
  n_new_accounts: number | bigint;
  n_new_contracts: number | bigint;
  n_cleared_accounts: number | bigint;
  n_funded_accounts: number | bigint;
  gas_limit: number | bigint;
  gas_used: number | bigint;
  storage_paid: number | bigint;
  lb_esc_vote: 'on' | 'off' | 'pass' | null;
  lb_esc_ema: number | bigint | null;
  ai_vote: 'on' | 'off' | 'pass' | null;
  ai_ema: number | bigint | null;
  proposer_consensus_key_id: number | bigint | null;
  baker_consensus_key_id: number | bigint | null;
  pct_account_reuse: number | null;
  baker: string | null;
  proposer: string | null;
  protocol: string;
  proposer_consensus_key: string | null;
  baker_consensus_key: string | null;
  predecessor: string | null;
  is_orphan: boolean;
  lb_vote: 'on' | 'off' | 'pass' | null;
  lb_ema: number | bigint | null;
};

/** operations (manager, consensus, voting, anonymous, internal) and implicit events, final only */
export type OpRow = {
  /** unique row id (local to this table and instance); the op id is in column id */
  row_id?: bigint | number;
  /**
   * operation or event type, in the TzPro SDK's names (the node's kind is in `kind`); contract events (`event`) and
   * kinds of protocols newer than this build (`unknown`) are listed only when a `type` filter names them
   */
  type:
    | 'bake'
    | 'endorsement'
    | 'transaction'
    | 'reveal'
    | 'delegation'
    | 'origination'
    | 'nonce_revelation'
    | 'activation'
    | 'ballot'
    | 'proposal'
    | 'double_baking'
    | 'double_endorsement'
    | 'unfreeze'
    | 'invoice'
    | 'airdrop'
    | 'seed_slash'
    | 'migration'
    | 'subsidy'
    | 'register_constant'
    | 'preendorsement'
    | 'double_preendorsement'
    | 'deposits_limit'
    | 'deposit'
    | 'bonus'
    | 'reward'
    | 'rollup_origination'
    | 'rollup_transaction'
    | 'vdf_revelation'
    | 'increase_paid_storage'
    | 'drain_delegate'
    | 'update_consensus_key'
    | 'transfer_ticket'
    | 'event'
    | 'unknown';
  /** operation hash; null for implicit events */
  hash?: string | null;
  /** height of the including block */
  height: bigint | number;
  /** cycle of the including block */
  cycle: bigint | number;
  /** time of the including block */
  time: Date | number | string;
  /** position of the operation in the block (unique per block) */
  op_n: bigint | number;
  /** position in the node's operation list (validation pass) */
  op_p: bigint | number;
  /** operation status */
  status: 'applied' | 'failed' | 'backtracked' | 'skipped';
  /** applied successfully */
  is_success: boolean;
  /** smart contract call (receiver is a contract) */
  is_contract: boolean;
  /** internal operation emitted by a smart contract */
  is_internal: boolean;
  /** implicit event without an operation hash */
  is_event: boolean;
  /** rollup operation */
  is_rollup: boolean;
  /** sender's manager counter; null for non-manager operations and events */
  counter?: bigint | number | null;
  /** gas limit set by the sender (gas units) */
  gas_limit: bigint | number;
  /** gas consumed (gas units) */
  gas_used: bigint | number;
  /** storage limit set by the sender (bytes) */
  storage_limit: bigint | number;
  /** storage bytes paid for */
  storage_paid: bigint | number;
  /** tez transferred; for denunciations the accuser reward; for delegations the delegated balance (tez) */
  volume: bigint;
  /** fee paid; for denunciations the offender's lost fees as a negative value (tez) */
  fee: bigint;
  /** reward earned; for denunciations the offender's lost rewards as a negative value (tez) */
  reward: bigint;
  /** deposit frozen; for denunciations the offender's lost deposit as a negative value (tez) */
  deposit: bigint;
  /** tez burned (storage, allocation, penalties; tez) */
  burned: bigint;
  /** account row id of the sender; null for events without sender */
  sender_id?: bigint | number | null;
  /** account row id of the receiver; null when the operation has none */
  receiver_id?: bigint | number | null;
  /** account row id of the creator (originator, seed publisher, direct source of internal operations) */
  creator_id?: bigint | number | null;
  /** account row id of the (new) baker on originations and delegations */
  baker_id?: bigint | number | null;
  /** type-dependent extra data (non-contract operations; see the explorer op `data` field) */
  data?: string | null;
  /** call parameters as binary Micheline (contract calls only) */
  parameters?: string | Uint8Array | null;
  /** 8-byte hash of the contract storage after the call (contract calls only) */
  storage_hash?: string | Uint8Array | null;
  /** node RPC errors of a failed operation */
  errors?: unknown | null;
  /** index of the called entrypoint in the contract's entrypoint list (contract calls only) */
  entrypoint_id?: bigint | number | null;
  /** sender address */
  sender?: string | null;
  /** receiver address */
  receiver?: string | null;
  /** creator address */
  creator?: string | null;
  /** baker address */
  baker?: string | null;
  /** hash of the including block; a filter may give its height instead (eq, ne, in, nin) */
  block: string;
  /** called entrypoint name (contract calls only) */
  entrypoint?: string | null;
  /** binary-encoded bigmap updates of the call (contract calls only) */
  big_map_diff?: string | Uint8Array | null;
  /** operation id height<<16 | op_n (from the block position, so the same on every instance) */
  id: bigint | number;
  /** 8-byte hash of the called or originated contract's code */
  code_hash?: string | Uint8Array | null;
  /**
   * validation pass (operation list) of the operation in the block, 0..3; -1 for block-level events. With height and
   * op_n a stable reference across instances
   */
  op_l: bigint | number;
  /**
   * consensus power of (pre)endorsements: slots (Emmy, Tenderbake up to Seoul) or the attesting power the node reports
   */
  power?: bigint | number | null;
  /** deposits limit set by a deposits_limit operation; null when it removes the limit or for other types (tez) */
  deposits_limit?: bigint | null;
  /** inbox or commitment level a rollup operation refers to */
  rollup_level?: bigint | number | null;
  /**
   * the node's operation kind (attestation, smart_rollup_cement, dal_publish_commitment, update_companion_key, event…);
   * implicit events: their type
   */
  kind: string;
};

/** A op row as read (CatalogRows): values as explorer objects show them. */
export type OpRead = {
  row_id: number | bigint;
  type:
    | 'bake'
    | 'endorsement'
    | 'transaction'
    | 'reveal'
    | 'delegation'
    | 'origination'
    | 'nonce_revelation'
    | 'activation'
    | 'ballot'
    | 'proposal'
    | 'double_baking'
    | 'double_endorsement'
    | 'unfreeze'
    | 'invoice'
    | 'airdrop'
    | 'seed_slash'
    | 'migration'
    | 'subsidy'
    | 'register_constant'
    | 'preendorsement'
    | 'double_preendorsement'
    | 'deposits_limit'
    | 'deposit'
    | 'bonus'
    | 'reward'
    | 'rollup_origination'
    | 'rollup_transaction'
    | 'vdf_revelation'
    | 'increase_paid_storage'
    | 'drain_delegate'
    | 'update_consensus_key'
    | 'transfer_ticket'
    | 'event'
    | 'unknown';
  hash: string | null;
  height: number | bigint;
  cycle: number | bigint;
  time: string;
  op_n: number | bigint;
  op_p: number | bigint;
  status: 'applied' | 'failed' | 'backtracked' | 'skipped';
  is_success: boolean;
  is_contract: boolean;
  is_internal: boolean;
  is_event: boolean;
  is_rollup: boolean;
  counter: number | bigint | null;
  gas_limit: number | bigint;
  gas_used: number | bigint;
  storage_limit: number | bigint;
  storage_paid: number | bigint;
  volume: number;
  fee: number;
  reward: number;
  deposit: number;
  burned: number;
  sender_id: number | bigint | null;
  receiver_id: number | bigint | null;
  creator_id: number | bigint | null;
  baker_id: number | bigint | null;
  data: string | null;
  parameters: string | null;
  storage_hash: string | null;
  errors: unknown;
  entrypoint_id: number | bigint | null;
  sender: string | null;
  receiver: string | null;
  creator: string | null;
  baker: string | null;
  block: string;
  entrypoint: string | null;
  big_map_diff: string | null;
  id: number | bigint;
  code_hash: string | null;
  op_l: number | bigint;
  power: number | bigint | null;
  deposits_limit: number | null;
  rollup_level: number | bigint | null;
  kind: string;
};

/** smart contracts (and rollups) with their code, origination storage and call statistics */
export type ContractRow = {
  /** unique row id (local to this table and instance) */
  row_id?: bigint | number;
  /** contract address (KT1, txr1, sr1) */
  address: string;
  /** account row id of the contract */
  account_id: bigint | number;
  /** account row id of the originator; null for contracts created at genesis or by migrations */
  creator_id?: bigint | number | null;
  /** origination height */
  first_seen: bigint | number;
  /** height of the latest call or update */
  last_seen: bigint | number;
  /** current storage size (bytes) */
  storage_size: bigint | number;
  /** storage bytes paid for */
  storage_paid: bigint | number;
  /** tez burned for storage (tez) */
  storage_burn: bigint;
  /** code and initial storage as binary Micheline; null for rollups */
  script?: string | Uint8Array | null;
  /** current storage as binary Micheline; null for rollups */
  storage?: string | Uint8Array | null;
  /** 8-byte hash of the parameter type (interface); null for rollups */
  iface_hash?: string | Uint8Array | null;
  /** 8-byte hash of the code; null for rollups */
  code_hash?: string | Uint8Array | null;
  /** 8-byte hash of the current storage; null for rollups */
  storage_hash?: string | Uint8Array | null;
  /** per-entrypoint call counters (4-byte big-endian each, in entrypoint order) */
  call_stats: string | Uint8Array;
  /** comma-separated Michelson features used by the code */
  features: string;
  /** comma-separated standard interfaces implemented (e.g. FA1.2, FA2) */
  interfaces: string;
  /** originator address */
  creator?: string | null;
  /** time of block first_seen */
  first_seen_time: Date | number | string;
  /** time of block last_seen */
  last_seen_time: Date | number | string;
  /** calls to the contract the node did not apply (failed, backtracked, skipped) */
  n_calls_failed: bigint | number;
};

/** A contract row as read (CatalogRows): values as explorer objects show them. */
export type ContractRead = {
  row_id: number | bigint;
  address: string;
  account_id: number | bigint;
  creator_id: number | bigint | null;
  first_seen: number | bigint;
  last_seen: number | bigint;
  storage_size: number | bigint;
  storage_paid: number | bigint;
  storage_burn: number;
  script: string | null;
  storage: string | null;
  iface_hash: string | null;
  code_hash: string | null;
  storage_hash: string | null;
  call_stats: string;
  features: string;
  interfaces: string;
  creator: string | null;
  first_seen_time: string;
  last_seen_time: string;
  n_calls_failed: number | bigint;
};

/** global constants registered on chain */
export type ConstantRow = {
  /** unique row id (local to this table and instance) */
  row_id?: bigint | number;
  /** constant hash (expr…) */
  address: string;
  /** account row id of the registering account */
  creator_id: bigint | number;
  /** constant value as binary Micheline */
  value?: string | Uint8Array | null;
  /** registration height */
  height: bigint | number;
  /** size of the value (bytes) */
  storage_size: bigint | number;
  /** comma-separated Michelson features used by the value */
  features: string;
  /** address of the registering account */
  creator: string;
  /** registration time */
  time: Date | number | string;
};

/** A constant row as read (CatalogRows): values as explorer objects show them. */
export type ConstantRead = {
  row_id: number | bigint;
  address: string;
  creator_id: number | bigint;
  value: string | null;
  height: number | bigint;
  storage_size: number | bigint;
  features: string;
  creator: string;
  time: string;
};

/**
 * protocol constants as the node reports them, read at the first indexed block of each protocol (not in the spec's
 * list)
 */
export type ProtocolRow = {
  /** unique row id (local to this table and instance) */
  row_id?: bigint | number;
  /** protocol hash */
  protocol: string;
  /** height of the block the constants were read at (the first indexed block of the protocol) */
  height: bigint | number;
  /** the node's /context/constants at that block */
  constants: unknown;
};

/** A protocol row as read (CatalogRows): values as explorer objects show them. */
export type ProtocolRead = { row_id: number | bigint; protocol: string; height: number | bigint; constants: unknown };

/** contract events (Kathmandu on), one row per applied `event` internal operation */
export type EventRow = {
  /** unique row id (local to this table and instance) */
  row_id?: bigint | number;
  /** block height */
  height: bigint | number;
  /**
   * op id (height<<16 | op_n) of the operation that emitted the event (the signed content, not the internal operation)
   */
  op_id: bigint | number;
  /** account row id of the emitting contract */
  account_id: bigint | number;
  /** event type as binary Micheline */
  type: string | Uint8Array;
  /** event payload as binary Micheline */
  payload?: string | Uint8Array | null;
  /** tag chosen by the contract author */
  tag?: string | null;
  /** first 8 bytes of SHA-256 over the binary type without annotations */
  type_hash: string | Uint8Array;
  /** emitting contract */
  contract: string;
  /** op id of the internal `event` operation itself */
  event_op_id: bigint | number;
};

/** A event row as read (CatalogRows): values as explorer objects show them. */
export type EventRead = {
  row_id: number | bigint;
  height: number | bigint;
  op_id: number | bigint;
  account_id: number | bigint;
  type: string;
  payload: string | null;
  tag: string | null;
  type_hash: string;
  contract: string;
  event_op_id: number | bigint;
};

/** every storage a contract has had, one row per change (origination and calls that changed it), as tzindex keeps it */
export type StorageRow = {
  /** unique row id (local to this table and instance) */
  row_id?: bigint | number;
  /** account row id of the contract */
  account_id: bigint | number;
  /** 8-byte storage hash (the contract's and the calls' storage_hash) */
  hash: string | Uint8Array;
  /** height at which the contract took this storage */
  height: bigint | number;
  /** storage as binary Micheline */
  storage: string | Uint8Array;
  /** contract address */
  contract: string;
  /** time of that block */
  time: Date | number | string;
};

/** A storage row as read (CatalogRows): values as explorer objects show them. */
export type StorageRead = {
  row_id: number | bigint;
  account_id: number | bigint;
  hash: string;
  height: number | bigint;
  storage: string;
  contract: string;
  time: string;
};

/** ticket balance changes (Lima on), one row per account and ticket an applied operation changed */
export type TicketUpdateRow = {
  /** unique row id (local to this table and instance) */
  row_id?: bigint | number;
  /** block height */
  height: bigint | number;
  /** block time */
  time: Date | number | string;
  /** op id (height<<16 | op_n) of the operation (or internal operation) whose receipt lists the change */
  op_id: bigint | number;
  /** contract that issued the ticket */
  ticketer: string;
  /** ticket content type as binary Micheline */
  type: string | Uint8Array;
  /** ticket content as binary Micheline */
  content: string | Uint8Array;
  /** ticket owner whose balance changed */
  account: string;
  /** signed change of the owner's ticket balance (ticket units) */
  amount: bigint | number;
};

/** A ticket_update row as read (CatalogRows): values as explorer objects show them. */
export type TicketUpdateRead = {
  row_id: number | bigint;
  height: number | bigint;
  time: string;
  op_id: number | bigint;
  ticketer: string;
  type: string;
  content: string;
  account: string;
  amount: string;
};

/** balance, freezer and delegation flows; one row per account and balance change of an operation or event */
export type FlowRow = {
  /** unique row id (local to this table and instance) */
  row_id?: bigint | number;
  /** block height */
  height: bigint | number;
  /** block cycle */
  cycle: bigint | number;
  /** block time */
  time: Date | number | string;
  /** op_n of the operation or event that caused the flow */
  op_n: bigint | number;
  /** position in the operation's contents list; null for implicit events */
  op_c?: bigint | number | null;
  /** position in the internal results list; null unless caused by an internal operation */
  op_i?: bigint | number | null;
  /** account row id whose balance changed */
  account_id: bigint | number;
  /** account row id of the other side; null when there is none */
  counterparty_id?: bigint | number | null;
  /** sub-balance that changed */
  category: 'rewards' | 'deposits' | 'fees' | 'balance' | 'delegation' | 'bond';
  /** what caused the flow */
  operation:
    | 'endorsement'
    | 'transaction'
    | 'origination'
    | 'delegation'
    | 'reveal'
    | 'baking'
    | 'nonce_revelation'
    | 'activation'
    | 'penalty'
    | 'internal'
    | 'invoice'
    | 'airdrop'
    | 'subsidy'
    | 'register_constant'
    | 'bonus'
    | 'reward'
    | 'deposit'
    | 'deposits_limit'
    | 'rollup_origination'
    | 'rollup_transaction'
    | 'rollup_reward'
    | 'rollup_penalty'
    | 'pay_storage'
    | 'update_consensus_key'
    | 'drain'
    | 'transfer_ticket';
  /** amount credited (tez) */
  amount_in: bigint;
  /** amount debited (tez) */
  amount_out: bigint;
  /** the out-flow paid a fee */
  is_fee: boolean;
  /** the out-flow was burned */
  is_burned: boolean;
  /** the in-flow went to a frozen sub-balance */
  is_frozen: boolean;
  /** the flow releases frozen funds */
  is_unfrozen: boolean;
  /** the out-flow went into a sapling shielded pool */
  is_shielded: boolean;
  /** the in-flow came from a sapling shielded pool */
  is_unshielded: boolean;
  /** seconds since the account's funds last moved */
  token_age: bigint | number;
  /**
   * op row id of the denunciation a cycle-end slashing flow belongs to (Oxford+, the node's `delayed_operation_hash`);
   * null for other flows
   */
  delayed_op_id?: bigint | number | null;
  /** address of the account whose balance changed */
  address: string;
  /** address of the other side */
  counterparty?: string | null;
};

/** A flow row as read (CatalogRows): values as explorer objects show them. */
export type FlowRead = {
  row_id: number | bigint;
  height: number | bigint;
  cycle: number | bigint;
  time: string;
  op_n: number | bigint;
  op_c: number | bigint | null;
  op_i: number | bigint | null;
  account_id: number | bigint;
  counterparty_id: number | bigint | null;
  category: 'rewards' | 'deposits' | 'fees' | 'balance' | 'delegation' | 'bond';
  operation:
    | 'endorsement'
    | 'transaction'
    | 'origination'
    | 'delegation'
    | 'reveal'
    | 'baking'
    | 'nonce_revelation'
    | 'activation'
    | 'penalty'
    | 'internal'
    | 'invoice'
    | 'airdrop'
    | 'subsidy'
    | 'register_constant'
    | 'bonus'
    | 'reward'
    | 'deposit'
    | 'deposits_limit'
    | 'rollup_origination'
    | 'rollup_transaction'
    | 'rollup_reward'
    | 'rollup_penalty'
    | 'pay_storage'
    | 'update_consensus_key'
    | 'drain'
    | 'transfer_ticket';
  amount_in: number;
  amount_out: number;
  is_fee: boolean;
  is_burned: boolean;
  is_frozen: boolean;
  is_unfrozen: boolean;
  is_shielded: boolean;
  is_unshielded: boolean;
  token_age: number | bigint;
  delayed_op_id: number | bigint | null;
  address: string;
  counterparty: string | null;
  id: number | bigint;
  kind: 'rewards' | 'deposits' | 'fees' | 'balance' | 'delegation' | 'bond';
  type:
    | 'endorsement'
    | 'transaction'
    | 'origination'
    | 'delegation'
    | 'reveal'
    | 'baking'
    | 'nonce_revelation'
    | 'activation'
    | 'penalty'
    | 'internal'
    | 'invoice'
    | 'airdrop'
    | 'subsidy'
    | 'register_constant'
    | 'bonus'
    | 'reward'
    | 'deposit'
    | 'deposits_limit'
    | 'rollup_origination'
    | 'rollup_transaction'
    | 'rollup_reward'
    | 'rollup_penalty'
    | 'pay_storage'
    | 'update_consensus_key'
    | 'drain'
    | 'transfer_ticket';
};

/** Typed handles of the core-chain tables: `ctx.append(tables.account, row)`. */
export const tables = {
  account: tableHandle<AccountRow, AccountRead>('account'),
  balance: tableHandle<BalanceRow, BalanceRead>('balance'),
  chain: tableHandle<ChainRow, ChainRead>('chain'),
  supply: tableHandle<SupplyRow, SupplyRead>('supply'),
  block: tableHandle<BlockRow, BlockRead>('block'),
  op: tableHandle<OpRow, OpRead>('op'),
  contract: tableHandle<ContractRow, ContractRead>('contract'),
  constant: tableHandle<ConstantRow, ConstantRead>('constant'),
  protocol: tableHandle<ProtocolRow, ProtocolRead>('protocol'),
  event: tableHandle<EventRow, EventRead>('event'),
  storage: tableHandle<StorageRow, StorageRead>('storage'),
  ticket_update: tableHandle<TicketUpdateRow, TicketUpdateRead>('ticket_update'),
  flow: tableHandle<FlowRow, FlowRead>('flow'),
} as const;
