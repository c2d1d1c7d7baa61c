import { b58Encode, PrefixV2 } from '@taquito/utils';
import { expect } from 'chai';
import { SandboxChain, SandboxRpcTransport } from '../../framework/sandbox';
import type { Json } from '../chain/support/Json';
import { getJson } from '../explorer/support/api';
import { BACKEND } from '../support/TestDatabase';
import type { TestInstance } from '../support/TestInstance';
import { expectedTables, type ExpectedTables, type NodeAsk } from './support/GovernanceOracle';
import {
  chainIds,
  expectTables,
  indexWithNode,
  sandboxNode,
  startGovernanceInstance,
} from './support/governanceInstance';

/**
 * The sandbox never fails a period and speaks Ushuaia, so these chains are its blocks rewritten the
 * way other chains look: periods that fail (the next period is a proposal period again) and the
 * pre-Edo schedule (four periods, `level` + `voting_period_kind` metadata, roll listings, a promotion
 * adopted by a protocol switch at its last block). The node behind them is the sandbox's.
 */
const chain = new SandboxChain({ seed: 'governance', profile: 'tiny' });
const transport = new SandboxRpcTransport(chain);
const node = sandboxNode(transport);
const PERIOD = 16;
const SECOND_PROPOSAL = 'PtEdo2ZkT9oKpimTah6x2embF25oss54njMuPzkJTEi5RqfdZFA';
const firstLevel = (period: number): number => period * PERIOD + 1;

function blocks(head: number): Json[] {
  chain.bakeTo(head);
  const out: Json[] = [];
  for (let level = 0; level <= head; level++) out.push(JSON.parse(chain.blockJson(chain.at(level)!)));
  return out;
}

async function indexAndExpect(t: TestInstance, rewritten: Json[], ask: NodeAsk): Promise<ExpectedTables> {
  await indexWithNode(t, rewritten, ask);
  const expected = await expectedTables(rewritten, ask, await chainIds(t));
  await expectTables(t, expected);
  return expected;
}

describe(`governance: failed periods (${BACKEND})`, function () {
  this.timeout(300_000);
  let t: TestInstance;
  let expected: ExpectedTables;

  before(async function () {
    const raw = blocks(firstLevel(3));
    // Proposal period: a baker who upvoted P submits [P, Q] again near the end — Q is a second
    // proposal, P's upvote and the baker's turnout are not counted twice.
    const proposals = raw.slice(1, firstLevel(1)).flatMap((b) => b.operations[1].map((g: Json) => g.contents[0]));
    const again = raw[firstLevel(1) - 2];
    again.operations[1].push({
      ...again.operations[1][0],
      hash: b58Encode(new Uint8Array(32).fill(7), PrefixV2.OperationHash),
      contents: [{ ...proposals[0], proposals: [proposals[0].proposals[0], SECOND_PROPOSAL] }],
    });
    // Exploration (period 1): only the two smallest bakers vote, both nay — too few, and no supermajority.
    const listings = (await node(firstLevel(1), 'votes/listings')) as Array<{ pkh: string; voting_power: string }>;
    const smallest = new Set(
      [...listings]
        .sort((a, b) => Number(BigInt(a.voting_power) - BigInt(b.voting_power)))
        .slice(0, 2)
        .map((l) => l.pkh),
    );
    for (const b of raw.slice(firstLevel(1), firstLevel(2))) {
      b.operations[1] = b.operations[1].filter((g: Json) => smallest.has(g.contents[0].source));
      for (const g of b.operations[1]) g.contents[0].ballot = 'nay';
    }
    // So period 2 is a proposal period again (a new election) which nobody proposes in, and so is period 3.
    for (const b of raw.slice(firstLevel(2))) b.metadata.voting_period_info.voting_period.kind = 'proposal';
    raw[firstLevel(3)].operations[1] = [];
    t = await startGovernanceInstance();
    expected = await indexAndExpect(t, raw, node);
  });
  after(async () => t?.close());

  it('counts each baker once per proposal and once in the turnout', () => {
    const first = expected.proposal.filter((p) => p.election_id === '1');
    expect(first.map((p) => [p.hash === SECOND_PROPOSAL, p.voters])).to.deep.equal([
      [false, String(expected.vote[0].turnout_voters)],
      [true, '1'],
    ]);
    expect(expected.election[0].proposal).to.equal(first[0].hash);
  });

  it('fails an exploration for quorum and supermajority, and a proposal period without proposals', () => {
    expect(
      expected.election.map((e) => [
        e.last_voting_period,
        e.is_open,
        e.is_failed,
        e.no_quorum,
        e.no_majority,
        e.no_proposal,
        e.is_empty,
      ]),
    ).to.deep.equal([
      ['exploration', 'false', 'true', 'true', 'true', 'false', 'false'],
      ['proposal', 'false', 'true', 'false', 'false', 'true', 'true'],
      ['proposal', 'true', 'false', 'false', 'false', 'false', 'true'],
    ]);
    expect(expected.vote.map((v) => v.is_failed)).to.deep.equal(['false', 'true', 'true', 'false']);
  });

  it('shows the failures in the election objects', async () => {
    expect(await getJson(t, '/explorer/election/1')).to.include({
      is_failed: true,
      no_quorum: true,
      no_majority: true,
      num_periods: 2,
      voting_period: 'exploration',
      max_periods: 5,
    });
    const second = await getJson(t, '/explorer/election/2');
    expect(second).to.include({ is_failed: true, no_proposal: true, is_empty: true, num_proposals: 0 });
    expect(second.proposal).to.include({ is_failed: true, no_proposal: true });
    expect(second.proposal.proposals).to.deep.equal([]);
  });
});

describe(`governance: the pre-Edo schedule with roll listings (${BACKEND})`, function () {
  this.timeout(300_000);
  const OLD_KINDS = ['proposal', 'testing_vote', 'testing', 'promotion_vote'];
  const NEXT_PROTOCOL = 'PsFLorenaUUuikDWvMDr6fGBRG8kt3e3D3fHoXK1j1BFRxeSH4i';
  const TOKENS_PER_ROLL = 6_000_000_000n;
  const oldKind = (period: number): string => OLD_KINDS[period] ?? 'proposal';
  // A node of that time: no `current_period` (its period length is a constant) and listings in rolls.
  const oldNode: NodeAsk = async (level, path) => {
    if (path === 'votes/current_period') return undefined;
    const answer = await node(level, path);
    if (path === 'context/constants')
      return { ...(answer as Json), blocks_per_voting_period: PERIOD, tokens_per_roll: String(TOKENS_PER_ROLL) };
    if (path === 'votes/listings')
      return (answer as Array<{ pkh: string; voting_power: string }>)
        .map((l) => ({ pkh: l.pkh, rolls: Number(BigInt(l.voting_power) / TOKENS_PER_ROLL) }))
        .filter((l) => l.rolls > 0);
    return answer;
  };
  let t: TestInstance;
  let expected: ExpectedTables;

  before(async function () {
    const raw = blocks(firstLevel(4) + 1);
    for (const b of raw.slice(1)) {
      const info = b.metadata.voting_period_info;
      delete b.metadata.voting_period_info;
      b.metadata.level = {
        ...b.metadata.level_info,
        voting_period: info.voting_period.index,
        voting_period_position: info.position,
      };
      delete b.metadata.level_info;
      // Up to Delphi a period's last block already names the next period's kind.
      b.metadata.voting_period_kind = oldKind(info.voting_period.index + (info.remaining === 0 ? 1 : 0));
    }
    // The promotion passed: its last block switches protocols, and the next period is a proposal period.
    raw[firstLevel(4) - 1].metadata.next_protocol = NEXT_PROTOCOL;
    for (const b of raw.slice(firstLevel(4)))
      Object.assign(b, {
        protocol: NEXT_PROTOCOL,
        metadata: { ...b.metadata, protocol: NEXT_PROTOCOL, next_protocol: NEXT_PROTOCOL },
      });
    t = await startGovernanceInstance();
    expected = await indexAndExpect(t, raw, oldNode);
  });
  after(async () => t?.close());

  it('adopts after four periods, counting rolls', () => {
    expect(
      expected.election.map((e) => [e.num_periods, e.last_voting_period, e.is_open, e.is_failed, e.end_height]),
    ).to.deep.equal([
      ['4', 'promotion', 'false', 'false', String(firstLevel(4) - 1)],
      ['1', 'proposal', 'true', 'false', ''],
    ]);
    expect(expected.vote.every((v) => BigInt(v.eligible_rolls) > 0n && v.period_end_height !== '')).to.equal(true);
    expect(
      expected.ballot.filter((b) => b.voting_period_kind !== 'proposal').every((b) => Number(b.rolls) > 0),
    ).to.equal(true);
  });

  it('shows a four-period election', async () => {
    const election = await getJson(t, '/explorer/election/1');
    expect(election).to.include({ max_periods: 4, num_periods: 4, is_failed: false, voting_period: 'promotion' });
    expect(election.adoption).to.equal(null);
    expect(election.promotion.eligible_rolls).to.be.greaterThan(0);
  });
});
