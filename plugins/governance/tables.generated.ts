// Generated from tables.yaml by `npm run gen`: do not edit
// (test/framework/generated.test.ts checks it is current).
import { tableHandle } from '../../framework';

/** elections (entire governance cycles from the proposal period to adoption or failure) */
export type ElectionRow = {
  /** unique row id (local to this table and instance); the election id */
  row_id?: bigint | number;
  /** proposal row id of the winning proposal; null when none won */
  proposal_id?: bigint | number | null;
  /** voting periods the election ran through so far (1…5) */
  num_periods: bigint | number;
  /** proposals submitted in the proposal period */
  num_proposals: bigint | number;
  /** index of the election's first voting period */
  voting_period: bigint | number;
  /** time of the election's first block */
  start_time: Date | number | string;
  /** time of the election's last block; null while open */
  end_time?: Date | number | string | null;
  /** height of the election's first block */
  start_height: bigint | number;
  /** height of the election's last block; null while open */
  end_height?: bigint | number | null;
  /** no proposal was submitted */
  is_empty: boolean;
  /** the election is ongoing */
  is_open: boolean;
  /** the election ended without adoption */
  is_failed: boolean;
  /** failed for missing quorum */
  no_quorum: boolean;
  /** failed for missing supermajority */
  no_majority: boolean;
  /** hash of the winning proposal */
  proposal?: string | null;
  /** kind of the latest voting period reached */
  last_voting_period: 'proposal' | 'exploration' | 'cooldown' | 'promotion' | 'adoption';
  /** the proposal period ended without a winning proposal */
  no_proposal: boolean;
};

/** A election row as read (CatalogRows): values as explorer objects show them. */
export type ElectionRead = {
  row_id: number | bigint;
  proposal_id: number | bigint | null;
  num_periods: number | bigint;
  num_proposals: number | bigint;
  voting_period: number | bigint;
  start_time: string;
  end_time: string | null;
  start_height: number | bigint;
  end_height: number | bigint | null;
  is_empty: boolean;
  is_open: boolean;
  is_failed: boolean;
  no_quorum: boolean;
  no_majority: boolean;
  proposal: string | null;
  last_voting_period: 'proposal' | 'exploration' | 'cooldown' | 'promotion' | 'adoption';
  no_proposal: boolean;
};

/** individual protocol proposals, one row per proposal and election */
export type ProposalRow = {
  /** unique row id (local to this table and instance) */
  row_id?: bigint | number;
  /** proposed protocol hash */
  hash: string;
  /** height of the first submission */
  height: bigint | number;
  /** time of the first submission */
  time: Date | number | string;
  /** account row id of the first submitter */
  source_id: bigint | number;
  /** op id (height<<16 | op_n, the op table's id column) of the first submission */
  op_id: bigint | number;
  /** election row id */
  election_id: bigint | number;
  /** voting period index of the proposal period */
  voting_period: bigint | number;
  /** rolls in favour (0 after rolls were removed, and without a node) */
  rolls: bigint | number;
  /** stake in favour (tez; 0 without a node) */
  stake: bigint;
  /** bakers in favour */
  voters: bigint | number;
  /** address of the first submitter */
  source: string;
  /** hash of the first submission */
  op: string;
  /** `<election_id>:<hash>`, the row's unique key (a protocol may be proposed again in a later election) */
  election_hash: string;
};

/** A proposal row as read (CatalogRows): values as explorer objects show them. */
export type ProposalRead = {
  row_id: number | bigint;
  hash: string;
  height: number | bigint;
  time: string;
  source_id: number | bigint;
  op_id: number | bigint;
  election_id: number | bigint;
  voting_period: number | bigint;
  rolls: number | bigint;
  stake: number;
  voters: number | bigint;
  source: string;
  op: string;
  election_hash: string;
};

/** voting periods with their eligibility, quorum and results (one row per period) */
export type VoteRow = {
  /** unique row id (local to this table and instance) */
  row_id?: bigint | number;
  /** election row id */
  election_id: bigint | number;
  /** proposal row id voted on; null in a proposal period without winner */
  proposal_id?: bigint | number | null;
  /** voting period index */
  voting_period: bigint | number;
  /** voting period kind */
  voting_period_kind: 'proposal' | 'exploration' | 'cooldown' | 'promotion' | 'adoption';
  /** time of the period's first block */
  period_start_time: Date | number | string;
  /** time of the period's last block (planned time while open; null while open without a node) */
  period_end_time?: Date | number | string | null;
  /** height of the period's first block */
  period_start_height: bigint | number;
  /** height of the period's last block (planned while open; null while open before Florence without a node) */
  period_end_height?: bigint | number | null;
  /** rolls eligible to vote (0 after rolls were removed) */
  eligible_rolls: bigint | number;
  /** stake eligible to vote (tez) */
  eligible_stake: bigint;
  /** bakers eligible to vote */
  eligible_voters: bigint | number;
  /** required quorum in percent ×100 (8000 = 80.00 %) */
  quorum_pct: bigint | number;
  /** rolls needed for the quorum */
  quorum_rolls: bigint | number;
  /** stake needed for the quorum (tez) */
  quorum_stake: bigint;
  /** rolls that voted */
  turnout_rolls: bigint | number;
  /** stake that voted (tez) */
  turnout_stake: bigint;
  /** bakers that voted */
  turnout_voters: bigint | number;
  /** turnout in percent ×100 */
  turnout_pct: bigint | number;
  /**
   * participation moving average the period's quorum comes from, in percent ×100 (exploration and promotion from
   * Babylon on; 0 elsewhere)
   */
  turnout_ema: bigint | number;
  /** rolls voting yay */
  yay_rolls: bigint | number;
  /** stake voting yay (tez) */
  yay_stake: bigint;
  /** bakers voting yay */
  yay_voters: bigint | number;
  /** rolls voting nay */
  nay_rolls: bigint | number;
  /** stake voting nay (tez) */
  nay_stake: bigint;
  /** bakers voting nay */
  nay_voters: bigint | number;
  /** rolls voting pass */
  pass_rolls: bigint | number;
  /** stake voting pass (tez) */
  pass_stake: bigint;
  /** bakers voting pass */
  pass_voters: bigint | number;
  /** the period is ongoing */
  is_open: boolean;
  /** the period ended without success */
  is_failed: boolean;
  /** the proposal period ended in a tie */
  is_draw: boolean;
  /** no proposal was submitted */
  no_proposal: boolean;
  /** the quorum was not reached */
  no_quorum: boolean;
  /** the supermajority was not reached */
  no_majority: boolean;
  /** hash of the proposal voted on */
  proposal?: string | null;
};

/** A vote row as read (CatalogRows): values as explorer objects show them. */
export type VoteRead = {
  row_id: number | bigint;
  election_id: number | bigint;
  proposal_id: number | bigint | null;
  voting_period: number | bigint;
  voting_period_kind: 'proposal' | 'exploration' | 'cooldown' | 'promotion' | 'adoption';
  period_start_time: string;
  period_end_time: string | null;
  period_start_height: number | bigint;
  period_end_height: number | bigint | null;
  eligible_rolls: number | bigint;
  eligible_stake: number;
  eligible_voters: number | bigint;
  quorum_pct: number | bigint;
  quorum_rolls: number | bigint;
  quorum_stake: number;
  turnout_rolls: number | bigint;
  turnout_stake: number;
  turnout_voters: number | bigint;
  turnout_pct: number | bigint;
  turnout_ema: number | bigint;
  yay_rolls: number | bigint;
  yay_stake: number;
  yay_voters: number | bigint;
  nay_rolls: number | bigint;
  nay_stake: number;
  nay_voters: number | bigint;
  pass_rolls: number | bigint;
  pass_stake: number;
  pass_voters: number | bigint;
  is_open: boolean;
  is_failed: boolean;
  is_draw: boolean;
  no_proposal: boolean;
  no_quorum: boolean;
  no_majority: boolean;
  proposal: string | null;
};

/** ballots of exploration and promotion periods, and proposal upvotes (ballot yay, one row per baker and proposal) */
export type BallotRow = {
  /** unique row id (local to this table and instance) */
  row_id?: bigint | number;
  /** election row id */
  election_id: bigint | number;
  /** proposal row id voted on; null when its submission is older than the indexed chain */
  proposal_id?: bigint | number | null;
  /** voting period index */
  voting_period: bigint | number;
  /** voting period kind */
  voting_period_kind: 'proposal' | 'exploration' | 'cooldown' | 'promotion' | 'adoption';
  /** height of the ballot operation */
  height: bigint | number;
  /** time of the ballot operation */
  time: Date | number | string;
  /** account row id of the voting baker */
  source_id: bigint | number;
  /** op id (height<<16 | op_n, the op table's id column) of the ballot or proposals operation */
  op_id: bigint | number;
  /** rolls of the voter (0 after rolls were removed, and without a node) */
  rolls: bigint | number;
  /** voting stake of the voter (tez; 0 without a node) */
  stake: bigint;
  /** ballot cast */
  ballot: 'yay' | 'nay' | 'pass';
  /** address of the voting baker */
  source: string;
  /** hash of the ballot operation */
  op: string;
  /** hash of the proposal voted on */
  proposal: string;
};

/** A ballot row as read (CatalogRows): values as explorer objects show them. */
export type BallotRead = {
  row_id: number | bigint;
  election_id: number | bigint;
  proposal_id: number | bigint | null;
  voting_period: number | bigint;
  voting_period_kind: 'proposal' | 'exploration' | 'cooldown' | 'promotion' | 'adoption';
  height: number | bigint;
  time: string;
  source_id: number | bigint;
  op_id: number | bigint;
  rolls: number | bigint;
  stake: number;
  ballot: 'yay' | 'nay' | 'pass';
  source: string;
  op: string;
  proposal: string;
};

/**
 * the voting listings, one row per baker with voting rights in a voting period (from the node, as of the period's first
 * block)
 */
export type VoterRow = {
  /** unique row id (local to this table and instance) */
  row_id?: bigint | number;
  /** election row id */
  election_id: bigint | number;
  /** voting period index */
  voting_period: bigint | number;
  /** height of the period's first indexed block, where the listings were read */
  height: bigint | number;
  /** account row id of the baker; null when the account was never indexed */
  account_id?: bigint | number | null;
  /** rolls of the baker (0 after rolls were removed) */
  rolls: bigint | number;
  /** voting power of the baker (tez; for roll listings rolls × tokens_per_roll) */
  stake: bigint;
  /** address of the baker */
  address: string;
};

/** A voter row as read (CatalogRows): values as explorer objects show them. */
export type VoterRead = {
  row_id: number | bigint;
  election_id: number | bigint;
  voting_period: number | bigint;
  height: number | bigint;
  account_id: number | bigint | null;
  rolls: number | bigint;
  stake: number;
  address: string;
};

/** Typed handles of the governance tables: `ctx.append(tables.election, row)`. */
export const tables = {
  election: tableHandle<ElectionRow, ElectionRead>('election'),
  proposal: tableHandle<ProposalRow, ProposalRead>('proposal'),
  vote: tableHandle<VoteRow, VoteRead>('vote'),
  ballot: tableHandle<BallotRow, BallotRead>('ballot'),
  voter: tableHandle<VoterRow, VoterRead>('voter'),
} as const;
