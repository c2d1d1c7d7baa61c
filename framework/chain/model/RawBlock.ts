/**
 * The node's JSON as it arrives (GET /chains/main/blocks/{id}), for every protocol from genesis on.
 * Every field is optional or loosely typed on purpose: the normalizer reads it defensively, because old
 * protocols, trimmed recordings and future protocols all differ from the current shape.
 * Numbers the node sends as decimal strings (mutez, gas, counters, sizes) stay strings here.
 */

/** A Micheline expression in the node's JSON encoding. */
export type Micheline = unknown;

export interface RawBalanceUpdate {
  kind?: string;
  category?: string;
  contract?: string;
  delegate?: string;
  staker?: Record<string, unknown>;
  delegator?: string;
  committer?: string;
  bond_id?: Record<string, unknown>;
  cycle?: number;
  /** Protocol 003 and earlier wrote the freezer cycle into `level`. */
  level?: number;
  participation?: boolean;
  revelation?: boolean;
  change?: string;
  origin?: string;
  delayed_operation_hash?: string;
  [field: string]: unknown;
}

export interface RawOperationResult {
  status?: string;
  errors?: unknown[];
  balance_updates?: RawBalanceUpdate[];
  consumed_gas?: string;
  consumed_milligas?: string;
  storage?: Micheline;
  storage_size?: string;
  paid_storage_size_diff?: string;
  originated_contracts?: string[];
  allocated_destination_contract?: boolean;
  big_map_diff?: Record<string, unknown>[];
  lazy_storage_diff?: Record<string, unknown>[];
  ticket_updates?: Record<string, unknown>[];
  ticket_receipt?: Record<string, unknown>[];
  [field: string]: unknown;
}

export interface RawInternalOperation {
  kind?: string;
  source?: string;
  nonce?: number;
  result?: RawOperationResult;
  [field: string]: unknown;
}

export interface RawContentMetadata {
  balance_updates?: RawBalanceUpdate[];
  operation_result?: RawOperationResult;
  internal_operation_results?: RawInternalOperation[];
  [field: string]: unknown;
}

export interface RawOperationContent {
  kind?: string;
  /** The string `"too large"` when the node skipped metadata above its size limit. */
  metadata?: RawContentMetadata | string;
  [field: string]: unknown;
}

export interface RawOperationGroup {
  protocol?: string;
  chain_id?: string;
  hash?: string;
  branch?: string;
  contents?: RawOperationContent[];
  signature?: string;
}

export interface RawBlockHeader {
  level: number;
  proto?: number;
  predecessor: string;
  timestamp: string;
  validation_pass?: number;
  operations_hash?: string;
  fitness?: string[];
  context?: string;
  priority?: number;
  payload_hash?: string;
  payload_round?: number;
  proof_of_work_nonce?: string;
  seed_nonce_hash?: string;
  liquidity_baking_escape_vote?: boolean;
  liquidity_baking_toggle_vote?: string;
  adaptive_issuance_vote?: string;
  signature?: string;
  [field: string]: unknown;
}

export interface RawBlockMetadata {
  protocol?: string;
  next_protocol?: string;
  baker?: string;
  proposer?: string;
  baker_consensus_key?: string;
  proposer_consensus_key?: string;
  level_info?: Record<string, unknown>;
  /**
   * ≤ Florence: `{level, level_position, cycle, cycle_position, voting_period, voting_period_position,
   * expected_commitment}`.
   */
  level?: Record<string, unknown>;
  voting_period_info?: Record<string, unknown>;
  voting_period_kind?: string;
  nonce_hash?: string | null;
  consumed_gas?: string;
  consumed_milligas?: string;
  deactivated?: string[];
  balance_updates?: RawBalanceUpdate[];
  implicit_operations_results?: RawOperationResult[];
  liquidity_baking_escape_ema?: number;
  liquidity_baking_toggle_ema?: number;
  adaptive_issuance_vote_ema?: number;
  [field: string]: unknown;
}

export interface RawBlock {
  protocol: string;
  chain_id?: string;
  hash: string;
  header: RawBlockHeader;
  metadata?: RawBlockMetadata;
  operations?: RawOperationGroup[][];
}
