import { expect } from 'chai';
import { parseListings } from '../../plugins/governance/PeriodFacts';
import {
  addPower,
  ballotFailures,
  emaOfQuorum,
  NO_POWER,
  proposalFailures,
} from '../../plugins/governance/PeriodRules';
import type { Json } from '../chain/support/Json';
import { listFixtures, readFixtureJson } from '../support/fixtures';
import { BACKEND } from '../support/TestDatabase';
import type { TestInstance } from '../support/TestInstance';
import { expectedTables, votingPeriodOf, type ExpectedTables } from './support/GovernanceOracle';
import { chainIds, expectTables, indexWithNode, startGovernanceInstance } from './support/governanceInstance';

const MAINNET = 'NetXdQprcVkpaWU';

/**
 * No recorded block carries a `proposals` or `ballot` operation; the recordings governance can use are
 * the mainnet blocks of many protocols (their voting period metadata in every shape) and a Babylon-era
 * set of `votes/*` answers taken at one block.
 */
describe(`governance: recorded mainnet blocks of every era, without a node (${BACKEND})`, function () {
  this.timeout(300_000);
  // The smallest recorded block of each protocol (indexing time grows with block size).
  const byProtocol = new Map<string, { raw: Json; size: number }>();
  for (const file of listFixtures('tezos-rpc', 'blocks')) {
    const raw = readFixtureJson<Json>(file);
    const size = JSON.stringify(raw).length;
    if (raw.chain_id !== MAINNET || typeof raw.hash !== 'string' || !votingPeriodOf(raw)) continue;
    if (size < (byProtocol.get(raw.protocol)?.size ?? Infinity)) byProtocol.set(raw.protocol, { raw, size });
  }
  const blocks = [...byProtocol.values()].map((b) => b.raw).sort((a, b) => a.header.level - b.header.level);
  let t: TestInstance;
  let expected: ExpectedTables;

  before(async function () {
    t = await startGovernanceInstance();
    await indexWithNode(t, blocks);
    expected = await expectedTables(blocks, async () => undefined, await chainIds(t));
  });
  after(async () => t?.close());

  it('covers pre-Edo and Edo+ period metadata', () => {
    const eras = blocks.map((b) => (b.metadata.voting_period_info ? (b.metadata.level ? 'both' : 'edo+') : 'pre-edo'));
    expect(new Set(eras)).to.include.all.keys('pre-edo', 'both', 'edo+');
    expect(new Set(expected.vote.map((v) => v.voting_period_kind))).to.include.all.keys(
      'proposal',
      'cooldown',
      'promotion',
      'adoption',
    );
  });

  it('records one period per block and its election, closed at the next recorded one, with no outcome over the gaps', async () => {
    expect(expected.vote.length).to.equal(blocks.length);
    expect(expected.vote.every((v) => v.is_failed === 'false' && v.eligible_voters === '0')).to.equal(true);
    await expectTables(t, expected);
  });
});

describe('governance: tallies of recorded votes RPC answers', () => {
  const listings = readFixtureJson<unknown[]>('tezos-rpc', 'context', 'votes', 'legacy', 'mainnet-listings.json');
  const ballotList = readFixtureJson<Array<{ pkh: string; ballot: 'yay' | 'nay' | 'pass' }>>(
    'tezos-rpc',
    'context',
    'votes',
    'legacy',
    'mainnet-ballot_list.json',
  );
  const ballots = readFixtureJson<Record<string, number>>(
    'tezos-rpc',
    'context',
    'votes',
    'legacy',
    'mainnet-ballots.json',
  );
  const TOKENS_PER_ROLL = 8_000_000_000n;

  it('weighs each ballot by the voter’s listed rolls as the node sums them', () => {
    const power = parseListings(listings, TOKENS_PER_ROLL);
    expect(power.size).to.equal(listings.length);
    const sums = { yay: NO_POWER, nay: NO_POWER, pass: NO_POWER };
    for (const b of ballotList) sums[b.ballot] = addPower(sums[b.ballot], power.get(b.pkh)!);
    for (const k of ['yay', 'nay', 'pass'] as const) {
      expect(sums[k].rolls, k).to.equal(BigInt(ballots[k]));
      expect(sums[k].stake, k).to.equal(BigInt(ballots[k]) * TOKENS_PER_ROLL);
    }
  });

  it('reads Jakarta+ listings in mutez and skips malformed entries', () => {
    const power = parseListings(
      [{ pkh: 'tz1a', voting_power: '11528562933742' }, { pkh: 'tz1b', rolls: 3 }, { voting_power: '1' }, 'x'],
      1000n,
    );
    expect([...power]).to.deep.equal([
      ['tz1a', { rolls: 0n, stake: 11528562933742n }],
      ['tz1b', { rolls: 3n, stake: 3000n }],
    ]);
  });
});

describe('governance: the protocol’s vote rules', () => {
  it('needs yay ≥ 80 % of yay + nay and participation ≥ the quorum', () => {
    expect(ballotFailures(80n, 20n, 100n, 100n, 10000)).to.deep.equal({ noQuorum: false, noMajority: false });
    expect(ballotFailures(79n, 21n, 100n, 100n, 10000).noMajority).to.equal(true);
    // pass counts for participation, not for the supermajority
    expect(ballotFailures(8n, 2n, 55n, 100n, 5500)).to.deep.equal({ noQuorum: false, noMajority: false });
    expect(ballotFailures(8n, 2n, 54n, 100n, 5500).noQuorum).to.equal(true);
  });

  it('needs one proposal ahead of the others with min_proposal_quorum of the power', () => {
    expect(proposalFailures([30n, 30n, 10n], 100n, 500)).to.deep.equal({ isDraw: true, noQuorum: false });
    expect(proposalFailures([31n, 30n], 100n, 500)).to.deep.equal({ isDraw: false, noQuorum: false });
    expect(proposalFailures([4n], 100n, 500)).to.deep.equal({ isDraw: false, noQuorum: true });
    expect(proposalFailures([5n], 100n, 500)).to.deep.equal({ isDraw: false, noQuorum: false });
  });

  it('finds the participation EMA behind every Babylon+ quorum', () => {
    const [min, max] = [2000, 7000];
    for (let ema = 0; ema <= 10000; ema++) {
      const quorum = min + Math.floor((ema * (max - min)) / 10000);
      const found = emaOfQuorum(quorum, min, max);
      expect(min + Math.floor((found * (max - min)) / 10000), `ema ${ema}`).to.equal(quorum);
      expect(found).to.be.at.most(ema);
    }
  });
});
