import type { Micheline, RawBlockHeader } from '../model/RawBlock';

/** `…/header`: the shell and protocol header fields plus the block hash. */
export interface RpcBlockHeader extends RawBlockHeader {
  hash: string;
  protocol?: string;
  chain_id?: string;
}

/** One chunk of `/monitor/heads/main` (a shell header; no protocol or chain id). */
export interface MonitorHead {
  hash: string;
  level: number;
  predecessor: string;
  proto?: number;
  timestamp?: string;
  fitness?: string[];
}

export interface ContractScript {
  code: Micheline;
  storage: Micheline;
}

/** `…/context/contracts/{id}`. */
export interface RpcContract {
  balance: bigint;
  delegate?: string;
  script?: ContractScript;
  counter?: bigint;
  revealed?: boolean;
  raw: Record<string, unknown>;
}

/** `…/helpers/baking_rights` (Emmy `priority` is reported as `round`). */
export interface BakingRight {
  level: number;
  delegate: string;
  round: number;
  estimatedTime?: string;
  consensusKey?: string;
}

/** `…/helpers/attestation_rights` or `endorsing_rights`, one entry per delegate and level. */
export interface AttestationRight {
  level: number;
  delegate: string;
  /** Tenderbake: the delegate's first slot. */
  firstSlot?: number;
  /** Emmy: every slot. */
  slots?: number[];
  /** Slots (Emmy) or attesting/endorsing power (Tenderbake). */
  power: number;
  consensusKey?: string;
  estimatedTime?: string;
}

export interface RightsQuery {
  level?: number;
  cycle?: number;
  delegate?: string;
  /** Baking rights only: highest round to list. */
  maxRound?: number;
  /** Baking rights only: also list rounds after the delegate's first. */
  all?: boolean;
}

/** `…/votes/listings`: rolls up to Ithaca, mutez of voting power from Jakarta on. */
export interface VoterListing {
  pkh: string;
  votingPower: bigint;
  unit: 'rolls' | 'mutez';
}

export interface BallotEntry {
  pkh: string;
  ballot: string;
}

export interface BallotCounts {
  yay: bigint;
  nay: bigint;
  pass: bigint;
}

export interface ProposalCount {
  proposal: string;
  votingPower: bigint;
}

/** `…/votes/current_period` (Edo+) or, before Edo, only the kind from `current_period_kind`. */
export interface VotingPeriodInfo {
  kind: string;
  index?: number;
  startPosition?: number;
  position?: number;
  remaining?: number;
}
