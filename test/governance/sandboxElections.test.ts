import { expect } from 'chai';
import { tezToMutez } from '../../framework';
import { SandboxChain, SandboxRpcTransport } from '../../framework/sandbox';
import { GovernanceTables } from '../../plugins/governance/GovernanceTables';
import { tableReader } from '../../framework/indexer/TableReader';
import { loadMemory } from '../../plugins/governance/OpenPeriod';
import type { Json } from '../chain/support/Json';
import { expectError, expectNotModified, getJson, readAllPages, type Obj } from '../explorer/support/api';
import { indexSandbox } from '../support/IndexHarness';
import { BACKEND } from '../support/TestDatabase';
import type { TestInstance } from '../support/TestInstance';
import { expectedTables, type ExpectedRow, type ExpectedTables } from './support/GovernanceOracle';
import {
  chainIds,
  expectTables,
  readGovernance,
  sandboxNode,
  startGovernanceInstance,
} from './support/governanceInstance';

// tiny: 16-block periods, so a whole election is levels 1–80 and the next one starts at 81. The reorg
// replaces levels 80–82: the end of the first election and the start of the second.
const BEFORE_REORG = 82;
const REORG_DEPTH = 3;
const HEAD = 84;
const OPTIONS = { reorgDepth: 8, batchBlocks: 50 };
const KINDS = ['proposal', 'exploration', 'cooldown', 'promotion', 'adoption'];

const tez = (s: string): number => Number(s);
const bool = (s: string): boolean => s === 'true';
const orNull = (s: string): number | null => (s === '' ? null : Number(s));
// A time that does not exist yet (an open election's end) is Go's zero time, as the SDK decodes time.Time.
const rfc = (s: string): string => (s === '' ? '0001-01-01T00:00:00Z' : s);

describe(`governance: a sandbox chain through a full election (${BACKEND})`, function () {
  this.timeout(300_000);
  const chain = new SandboxChain({ seed: 'governance', profile: 'tiny' });
  const transport = new SandboxRpcTransport(chain);
  let t: TestInstance;
  let expected: ExpectedTables;

  let beforeReorg: Awaited<ReturnType<typeof readGovernance>>;

  before(async function () {
    chain.bakeTo(BEFORE_REORG);
    t = await startGovernanceInstance();
    await indexSandbox(t, chain, OPTIONS);
    beforeReorg = await readGovernance(t);
    chain.reorg(REORG_DEPTH);
    chain.bakeTo(HEAD);
    await indexSandbox(t, chain, OPTIONS);
    const blocks: Json[] = [];
    for (let level = 0; level <= chain.headLevel; level++) blocks.push(JSON.parse(chain.blockJson(chain.at(level)!)));
    expected = await expectedTables(blocks, sandboxNode(transport), await chainIds(t));
  });
  after(async () => t?.close());

  it('runs a whole election with proposals and every kind of ballot, and a reorg changed its end', async () => {
    expect(expected.election.map((e) => [e.num_periods, e.is_open, e.is_failed, e.end_height])).to.deep.equal([
      ['5', 'false', 'false', '80'],
      ['1', 'true', 'false', ''],
    ]);
    const kinds = new Set(expected.ballot.map((b) => `${b.voting_period_kind}/${b.ballot}`));
    expect(kinds).to.include.all.keys('proposal/yay', 'exploration/yay', 'promotion/yay');
    expect(expected.ballot.some((b) => b.ballot !== 'yay')).to.equal(true);
    expect(expected.voter.length).to.be.greaterThan(0);
    expect(await readGovernance(t)).to.not.deep.equal(beforeReorg);
  });

  // The oracle walks the final chain alone, so equal rows (row ids included) are what a run over the final chain gives.
  it('indexes every election, period, proposal, ballot and listing as the blocks and the node say, after a reorg across an election boundary', async () => {
    await expectTables(t, expected);
  });

  it('rebuilds the open period from the tables as after a restart', async () => {
    const memory = await t.app.db.writer.transaction((trx) =>
      loadMemory(tableReader(trx, t.app.catalog), GovernanceTables.from(t.app.catalog), HEAD + 1),
    );
    expect(memory.last).to.deep.equal({
      level: HEAD,
      time: Date.parse(chain.at(HEAD)!.timestamp),
      protocol: chain.identity.protocol,
    });
    const open = expected.vote.find((v) => v.is_open === 'true')!;
    const election = expected.election.find((e) => e.row_id === open.election_id)!;
    const cast = expected.ballot.filter((b) => b.voting_period === open.voting_period);
    expect(memory.open).to.deep.include({
      votingPeriod: Number(open.voting_period),
      kind: open.voting_period_kind,
      electionPeriod: Number(election.voting_period),
      electionId: BigInt(election.row_id),
    });
    expect([...memory.open!.listings]).to.deep.equal(
      expected.voter
        .filter((v) => v.voting_period === open.voting_period)
        .map((v) => [v.address, { rolls: BigInt(v.rolls), stake: tezToMutez(v.stake) }]),
    );
    expect(memory.open!.voted).to.deep.equal(new Set(cast.map((b) => b.source)));
    expect(memory.open!.upvotes).to.deep.equal(new Set(cast.map((b) => `${b.source} ${b.proposal}`)));
    expect(memory.open!.proposals).to.deep.equal(
      expected.proposal.filter((p) => p.election_id === election.row_id).map((p) => p.hash),
    );
    expect(cast.length).to.be.greaterThan(0);
  });

  describe('explorer', () => {
    const votesOf = (election: ExpectedRow): ExpectedRow[] =>
      expected.vote.filter((v) => v.election_id === election.row_id);

    function expectElection(body: Obj, e: ExpectedRow): void {
      expect(body).to.include({
        election_id: Number(e.row_id),
        num_periods: Number(e.num_periods),
        num_proposals: Number(e.num_proposals),
        start_time: e.start_time,
        end_time: rfc(e.end_time),
        start_height: Number(e.start_height),
        end_height: orNull(e.end_height),
        is_empty: bool(e.is_empty),
        is_open: bool(e.is_open),
        is_failed: bool(e.is_failed),
        no_quorum: bool(e.no_quorum),
        no_majority: bool(e.no_majority),
        no_proposal: bool(e.no_proposal),
        voting_period: e.last_voting_period,
        max_periods: 5,
      });
      const votes = votesOf(e);
      for (const kind of KINDS) {
        const v = votes.find((x) => x.voting_period_kind === kind);
        if (!v) {
          expect(body[kind], kind).to.equal(null);
          continue;
        }
        expect(body[kind], kind).to.include({
          voting_period: Number(v.voting_period),
          voting_period_kind: kind,
          period_start_time: v.period_start_time,
          period_end_time: rfc(v.period_end_time),
          period_start_block: Number(v.period_start_height),
          period_end_block: orNull(v.period_end_height),
          eligible_stake: tez(v.eligible_stake),
          eligible_voters: Number(v.eligible_voters),
          quorum_pct: Number(v.quorum_pct),
          quorum_stake: tez(v.quorum_stake),
          turnout_stake: tez(v.turnout_stake),
          turnout_voters: Number(v.turnout_voters),
          turnout_pct: Number(v.turnout_pct),
          turnout_ema: Number(v.turnout_ema),
          yay_stake: tez(v.yay_stake),
          nay_voters: Number(v.nay_voters),
          pass_voters: Number(v.pass_voters),
          is_open: bool(v.is_open),
          is_failed: bool(v.is_failed),
        });
        const proposals = expected.proposal.filter(
          (p) => p.election_id === e.row_id && (kind === 'proposal' || p.row_id === v.proposal_id),
        );
        expect(
          body[kind].proposals.map((p: Obj) => [p.hash, p.source, p.op_hash, p.height, p.stake, p.voters]),
          `${kind} proposals`,
        ).to.deep.equal(
          proposals.map((p) => [
            p.hash,
            p.source,
            p.op,
            Number(p.height),
            kind === 'proposal' ? tez(p.stake) : 0,
            kind === 'proposal' ? Number(p.voters) : 0,
          ]),
        );
        for (const p of body[kind].proposals) expect(p.block_hash).to.equal(chain.at(p.height)!.hash);
      }
    }

    it('/explorer/election/{head|number|proposal hash}', async () => {
      for (const e of expected.election) {
        expectElection(await getJson(t, `/explorer/election/${e.row_id}`), e);
        expectElection(await getJson(t, `/explorer/election/${e.proposal || e.row_id}`), e);
      }
      expectElection(await getJson(t, '/explorer/election/head'), expected.election[expected.election.length - 1]);
      expectElection(await getJson(t, '/explorer/election/1.json'), expected.election[0]);
      expect(await getJson(t, '/explorer/election/1/2/voters.json')).to.deep.equal(
        await getJson(t, '/explorer/election/1/2/voters'),
      );
      await expectNotModified(t, '/explorer/election/1');
    });

    it('/explorer/election/{id}/{stage}/voters and /ballots, every page', async () => {
      for (const e of expected.election)
        for (const v of votesOf(e)) {
          const stage = KINDS.indexOf(v.voting_period_kind) + 1;
          const listed = expected.voter.filter((x) => x.voting_period === v.voting_period);
          const cast = expected.ballot.filter((b) => b.voting_period === v.voting_period);
          const voterObjects = listed.map((x) => {
            const own = cast.filter((b) => b.source === x.address);
            // `ballot` and `proposals` are always there (empty when none), as the TzPro SDK's Voter reads them.
            const isProposal = v.voting_period_kind === 'proposal';
            const ballot = own.length && !isProposal ? own[0].ballot : '';
            const proposals = isProposal ? own.map((b) => b.proposal) : [];
            return {
              row_id: Number(x.row_id),
              address: x.address,
              rolls: Number(x.rolls),
              stake: tez(x.stake),
              ballot,
              has_voted: own.length > 0,
              proposals,
            } as Obj;
          });
          const ballotObjects = cast.map((b) => ({
            row_id: Number(b.row_id),
            height: Number(b.height),
            time: b.time,
            election_id: Number(b.election_id),
            voting_period: Number(b.voting_period),
            voting_period_kind: b.voting_period_kind,
            proposal: b.proposal,
            op: b.op,
            ballot: b.ballot,
            rolls: Number(b.rolls),
            stake: tez(b.stake),
            sender: b.source,
          }));
          for (const [path, objects] of [
            [`/explorer/election/${e.row_id}/${stage}/voters`, voterObjects],
            [`/explorer/election/${e.row_id}/${stage}/ballots`, ballotObjects],
          ] as const) {
            expect(await getJson(t, path), path).to.deep.equal(objects.slice(0, 20));
            expect(await readAllPages(t, path, 'asc', 'cursor', 2), path).to.deep.equal(objects);
            expect(await readAllPages(t, path, 'desc', 'offset', 3), path).to.deep.equal([...objects].reverse());
          }
        }
      const nays = expected.ballot.filter((b) => b.ballot === 'nay');
      const filtered = await getJson<Obj[]>(t, `/explorer/election/1/2/ballots?ballot=nay`);
      expect(filtered.map((b) => b.row_id)).to.deep.equal(
        nays
          .filter((b) => b.voting_period_kind === 'exploration' && b.election_id === '1')
          .map((b) => Number(b.row_id)),
      );
    });

    it('/explorer/bakers/{hash}/votes: a baker’s upvotes and ballots, newest first', async () => {
      const bakers = [...new Set(expected.ballot.map((b) => b.source))];
      expect(bakers.length).to.be.greaterThan(1);
      for (const baker of bakers) {
        const own = expected.ballot.filter((b) => b.source === baker).map((b) => Number(b.row_id));
        const path = `/explorer/bakers/${baker}/votes`;
        expect((await getJson<Obj[]>(t, path)).map((b) => b.row_id)).to.deep.equal([...own].reverse().slice(0, 20));
        expect((await readAllPages(t, path, 'asc', 'cursor', 4)).map((b) => b.row_id)).to.deep.equal(own);
        expect((await readAllPages(t, path, 'desc', 'cursor', 3)).map((b) => b.row_id)).to.deep.equal(
          [...own].reverse(),
        );
        expect(
          (await getJson<Obj[]>(t, `${path}?voting_period_kind=proposal&order=asc`)).every(
            (b) => b.voting_period_kind === 'proposal',
          ),
        ).to.equal(true);
      }
    });

    it('answers malformed ids with 400/1301 and unknown ones with 404/1305', async () => {
      const last = expected.election[expected.election.length - 1];
      const missingStage = KINDS.indexOf(last.last_voting_period) + 2;
      const cases: Array<[string, number, number, string]> = [
        ['/explorer/election/x1', 400, 1301, 'invalid election id'],
        ['/explorer/election/-1', 400, 1301, 'invalid election id'],
        ['/explorer/election/12345678901', 400, 1301, 'invalid election id'],
        ['/explorer/election/PsNotAProtocolHash', 400, 1301, 'invalid election id'],
        ['/explorer/election/99', 404, 1305, 'no election'],
        [`/explorer/election/${chain.identity.protocol}`, 404, 1305, 'no election'],
        ['/explorer/election/1/0/voters', 400, 1301, 'invalid voting period identifier'],
        ['/explorer/election/1/6/ballots', 400, 1301, 'invalid voting period identifier'],
        ['/explorer/election/1/x/voters', 400, 1301, 'invalid voting period identifier'],
        [`/explorer/election/${last.row_id}/${missingStage}/voters`, 404, 1305, 'voting period does not exist'],
        ['/explorer/election/99/1/ballots', 404, 1305, 'no election'],
        ['/explorer/bakers/tz1notanaddress/votes', 400, 1301, 'invalid address'],
        [`/explorer/bakers/${chain.knownContracts()[0].address}/votes`, 404, 1305, 'no such baker'],
        ['/explorer/election/1/2/ballots?limit=x', 400, 1005, 'invalid limit'],
        ['/explorer/election/1/2/ballots?cursor=x', 400, 1007, 'invalid cursor'],
        ['/explorer/election/1/2/voters?nope=1', 400, 1007, "unknown column 'nope'"],
        ['/explorer/election/1.csv', 400, 1001, 'unsupported format'],
        ['/explorer/election/1/2/ballots.csv', 400, 1001, 'unsupported format'],
      ];
      for (const [path, status, code, detail] of cases)
        expect(await expectError(t, path, status, code), path).to.contain(detail);
    });
  });
});
