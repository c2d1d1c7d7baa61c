import type { BalanceUpdate } from './BalanceUpdate';
import type { BigMapDiff, SaplingDiff } from './BigMapDiff';
import type { ContractEvent } from './ContractEvent';
import type { OperationStatus } from './OperationStatus';
import type { OperationType } from './OperationType';
import type { Micheline } from './RawBlock';
import type { TicketUpdate } from './TicketUpdate';

/** Consensus details of an (pre)endorsement / (pre)attestation row (one row per aggregate member). */
export interface ConsensusInfo {
  /** Level being endorsed. */
  level?: number;
  round?: number;
  /** First slot (Tenderbake) or the `endorsement_with_slot` slot. */
  slot?: number;
  /** All slots (Emmy endorsements). */
  slots?: number[];
  /** Endorsing power: slot count (Emmy), `endorsement_power` / `consensus_power` (Tenderbake; Tallinn `.slots`). */
  power: number;
  /** Tallinn+ `consensus_power.baking_power` (mutez of stake), when the node reports it. */
  bakingPower?: bigint;
  delegate?: string;
  consensusKey?: string;
  /** DAL attestation bitset (attestation_with_dal and aggregate members). */
  dalAttestation?: bigint;
  blockPayloadHash?: string;
}

/** The spec's polymorphic `data` field (see docs/operations.md for the value per type). */
export type OperationData = string | bigint | Record<string, unknown>;

/**
 * One operation row. A block's rows are: every content of every group in list order, each followed
 * by its internal operations; aggregate (pre)attestations expand to one row per committee member;
 * then the implicit block results (`opL` -1). Every decimal string of the node (mutez, gas, counters,
 * sizes, limits) is a bigint here; levels, slots and rounds are numbers.
 */
export interface NormalizedOperation {
  /** In-block row counter over all rows (internal, aggregate members, implicit), from 0, deterministic. */
  opN: number;
  /** Validation pass / list (0 consensus, 1 voting, 2 anonymous, 3 manager); -1 for implicit block results. */
  opL: number;
  /** Position of the group in its list (the implicit result's index for opL -1). */
  opP: number;
  /** Index of the content inside its group (batch position). */
  opC: number;
  /** 0 for the content itself, 1…n for its internal operations in execution order. */
  opI: number;
  /** Committee member index for rows expanded from an aggregate. */
  memberIndex?: number;
  /** Group hash; `""` for implicit block results. */
  hash: string;
  /** Raw node kind (internal rows: the internal kind, e.g. `event`). */
  kind: string;
  /** The spec's type, a project extension, or the raw kind when the kind is unknown. */
  type: OperationType | (string & {});
  status: OperationStatus;
  isSuccess: boolean;
  isInternal: boolean;
  /** A call of a smart contract (transaction to a scripted KT1). */
  isContract: boolean;
  /** A state change without an operation hash (implicit block results). */
  isEvent: boolean;
  isRollup: boolean;
  /** The kind is not in the normalizer's table; the row was built generically. */
  isUnknownKind: boolean;
  /** False when the node sent no receipt for this content. */
  hasMetadata: boolean;
  /** Raw node errors of failed/backtracked results. */
  errors?: unknown[];

  counter?: bigint;
  fee: bigint;
  gasLimit: bigint;
  /** Consumed gas in whole gas units, rounded up from milligas like the protocol does. */
  gasUsed: bigint;
  gasUsedMilli: bigint;
  storageLimit: bigint;
  /** `paid_storage_size_diff` (bytes newly paid); for increase_paid_storage the bytes bought. */
  storagePaid: bigint;
  storageSize?: bigint;
  /** Mutez burned by this row's result: storage fees, allocation, rollup punishments. */
  burned: bigint;
  /** Mutez moved: amount / origination balance / activated amount / drained amount / accuser reward. */
  volume: bigint;

  sender?: string;
  receiver?: string;
  /** The signer of the group (for internal rows: the original sender of the outer content). */
  source?: string;
  creator?: string;
  /** New delegate (delegation, origination); undefined in a delegation = withdrawal. */
  baker?: string;
  accuser?: string;
  offender?: string;

  entrypoint?: string;
  parameters?: Micheline;
  storage?: Micheline;
  script?: Micheline;
  /** register_global_constant value. */
  value?: Micheline;
  /** register_global_constant address (expr…). */
  constantAddress?: string;
  /** set_deposits_limit: the new limit, or null when the limit is removed. */
  limit?: bigint | null;
  /**
   * Rollup operations that name an inbox or commitment level (publish, cement, tx-rollup commitments and rejections).
   */
  rollupLevel?: number;
  originatedContracts: string[];
  allocatedDestination?: boolean;
  bigMapDiffs: BigMapDiff[];
  saplingDiffs: SaplingDiff[];
  /** On an event row: the event itself; on a content row: all events its internal operations emitted. */
  events: ContractEvent[];
  ticketUpdates: TicketUpdate[];
  /** `metadata.balance_updates` of the content: fees for manager ops, rewards/deposits/slashes for others. */
  balanceUpdates: BalanceUpdate[];
  /** Balance updates of the (internal) operation result. */
  resultBalanceUpdates: BalanceUpdate[];
  data?: OperationData;
  consensus?: ConsensusInfo;
  /** The raw content / internal operation / implicit result the row was built from (not copied). */
  raw: Readonly<Record<string, unknown>>;
}
