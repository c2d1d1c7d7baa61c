import type { Entity, EntityStore, IndexContext } from '../../framework';
import { tables, type ElectionRow, type ProposalRow, type VoteRow } from './tables.generated';

/**
 * The mutable governance rows of one block, through the framework's entity stores (cached across
 * blocks, written once per batch, journaled near the head for reorgs). Stores are keyed by a text
 * column: elections and votes by their (first) voting period index as a decimal string, proposals by
 * `<election_id>:<hash>`, since a protocol may be proposed again in a later election.
 */
export class GovernanceBook {
  private readonly elections: EntityStore<ElectionRow, 'voting_period'>;
  private readonly votes: EntityStore<VoteRow, 'voting_period'>;
  private readonly proposals: EntityStore<ProposalRow, 'election_hash'>;

  constructor(ctx: IndexContext) {
    this.elections = ctx.entities(tables.election, 'voting_period');
    this.votes = ctx.entities(tables.vote, 'voting_period');
    this.proposals = ctx.entities(tables.proposal, 'election_hash');
  }

  election(firstPeriod: number): Promise<Entity | undefined> {
    return this.elections.get(String(firstPeriod));
  }

  vote(period: number): Promise<Entity | undefined> {
    return this.votes.get(String(period));
  }

  proposal(electionId: bigint, hash: string): Promise<Entity | undefined> {
    return this.proposals.get(proposalKey(electionId, hash));
  }

  insertElection(firstPeriod: number, row: Omit<ElectionRow, 'voting_period'>): Entity {
    return this.elections.insert({ ...row, voting_period: String(firstPeriod) });
  }

  insertVote(period: number, row: Omit<VoteRow, 'voting_period'>): Entity {
    return this.votes.insert({ ...row, voting_period: String(period) });
  }

  insertProposal(
    electionId: bigint,
    hash: string,
    row: Omit<ProposalRow, 'election_id' | 'hash' | 'election_hash'>,
  ): Entity {
    return this.proposals.insert({
      ...row,
      election_id: electionId,
      hash,
      election_hash: proposalKey(electionId, hash),
    });
  }

  updateElection(e: Entity, patch: Partial<ElectionRow>): void {
    this.elections.update(e, patch);
  }

  updateVote(v: Entity, patch: Partial<VoteRow>): void {
    this.votes.update(v, patch);
  }

  updateProposal(p: Entity, patch: Partial<ProposalRow>): void {
    this.proposals.update(p, patch);
  }
}

function proposalKey(electionId: bigint, hash: string): string {
  return `${electionId}:${hash}`;
}
