import type { BalanceUpdate } from './BalanceUpdate';
import type { NormalizedOperation } from './NormalizedOperation';
import type { NormalizeWarning } from './NormalizeWarning';

export type FeatureVote = 'on' | 'off' | 'pass';

/** One block, the same shape for every protocol from genesis to Ushuaia. */
export interface NormalizedBlock {
  hash: string;
  predecessor: string;
  level: number;
  /** Header `proto` (the chain's protocol sequence number). */
  proto: number;
  /** Protocol hash the block was validated with. */
  protocol: string;
  /** `metadata.next_protocol`; differs from `protocol` on the last block of a protocol. */
  nextProtocol?: string;
  isProtocolMigration: boolean;
  chainId?: string;
  /** RFC 3339 as sent by the node. */
  timestamp: string;
  /** Unix milliseconds. */
  time: number;
  cycle: number;
  cyclePosition: number;
  expectedCommitment?: boolean;
  consensus: 'emmy' | 'tenderbake';
  /** Emmy priority or Tenderbake block round (from the fitness). */
  round: number;
  payloadRound?: number;
  fitness: string[];
  baker?: string;
  /** Tenderbake payload proposer; the baker for Emmy blocks. */
  proposer?: string;
  bakerConsensusKey?: string;
  proposerConsensusKey?: string;
  /** Header `seed_nonce_hash` (the baker's nonce commitment), when present. */
  nonceHash?: string;
  /** Header `proof_of_work_nonce` (hex, 8 bytes). */
  powNonce?: string;
  /**
   * Protocol constants from the node's context, set by the indexer (not the normalizer) on the first
   * block of a run and on the first block of each protocol after that; undefined elsewhere.
   */
  constants?: Readonly<Record<string, unknown>>;
  /** Liquidity-baking vote; Granada–Ithaca escape votes map `true` → off, `false` → on. */
  lbVote?: FeatureVote;
  lbEma?: number;
  /** Adaptive-issuance vote (Oxford–Seoul). */
  aiVote?: FeatureVote;
  aiEma?: number;
  votingPeriod?: number;
  /** Blocks left in the voting period after this one (Florence+ `voting_period_info.remaining`). */
  votingPeriodRemaining?: number;
  /** proposal | exploration | cooldown | promotion | adoption (pre-Edo names mapped onto these). */
  votingPeriodKind?: string;
  consumedMilligas?: bigint;
  deactivated: string[];
  /** Block-level balance updates (baking rewards, deposits, cycle-end payouts, migration). */
  balanceUpdates: BalanceUpdate[];
  /** All operation rows in opN order, implicit block results last. */
  operations: NormalizedOperation[];
  /** False when the node sent no block metadata (trimmed or pruned data). */
  hasMetadata: boolean;
  warnings: NormalizeWarning[];
}
