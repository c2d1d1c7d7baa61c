import { expect } from 'chai';
import { SandboxChain, SandboxNode } from '../../framework/sandbox';
import type { Json } from '../chain/support/Json';
import { OpenApiSchemas } from '../sandbox/OpenApiSchemas';

/**
 * The sandbox's `votes/*` RPCs, against the Ushuaia OpenAPI shapes and against what the chain's own
 * blocks and delegate RPCs say: listings are the bakers' stake (limits applied) at the end of the
 * previous period, ballots and proposals those of the blocks so far, the quorum Octez's participation
 * EMA, and after a period's last block the context already holds the next period.
 */
describe('sandbox: votes RPCs', function () {
  this.timeout(120_000);
  const HEAD = 90;
  const chain = new SandboxChain({ seed: 'votes', profile: 'tiny' });
  const node = new SandboxNode(chain);
  const PATHS = [
    'current_period',
    'successor_period',
    'listings',
    'total_voting_power',
    'ballot_list',
    'ballots',
    'proposals',
    'current_proposal',
    'current_quorum',
  ];
  // First, inner and last blocks of every period, and the blocks around them.
  const LEVELS = [1, 2, 9, 15, 16, 17, 18, 31, 32, 33, 47, 48, 49, 55, 63, 64, 65, 79, 80, 81, 89];

  const rpc = (level: number, path: string): { status: number; body: string } =>
    node.handle('GET', `/chains/main/blocks/${level}/${path}`);
  const json = (level: number, path: string): Json => {
    const res = rpc(level, path);
    expect(res.status, `${level}/${path}`).to.equal(200);
    return JSON.parse(res.body);
  };
  const block = (level: number): Json => JSON.parse(chain.blockJson(chain.at(level)!));
  const period = (level: number): Json => block(level).metadata.voting_period_info;
  let constants: Json;

  before(() => {
    chain.bakeTo(HEAD);
    constants = json(1, 'context/constants');
  });

  /** A period's first level, from the blocks' own metadata. */
  const firstOf = (index: number): number => {
    for (let level = 1; level <= HEAD; level++) if (period(level).voting_period.index === index) return level;
    throw new Error(`period ${index} not on chain`);
  };
  /** The period whose votes the context holds after `level`. */
  const stateOf = (level: number): number =>
    period(level).voting_period.index + (period(level).remaining === 0 ? 1 : 0);

  /**
   * Voting power from the delegate RPCs at the block that ended the previous period (the bootstrap block for period 0).
   */
  const listingsOf = (index: number): Map<string, bigint> => {
    const at = Math.max(1, firstOf(index) - 1);
    const delegation = BigInt(constants.limit_of_delegation_over_baking);
    const staking = BigInt(constants.global_limit_of_staking_over_baking);
    const out = new Map<string, bigint>();
    for (const pkh of json(at, 'context/delegates') as unknown as string[]) {
      const d = json(at, `context/delegates/${pkh}`);
      if (BigInt(d.baking_power) === 0n) continue;
      const own = BigInt(d.own_staked);
      const external = BigInt(d.external_staked);
      const counted = external < own * staking ? external : own * staking;
      const delegated = BigInt(d.own_delegated) + BigInt(d.external_delegated) + external - counted;
      out.set(pkh, own + counted + (delegated < own * delegation ? delegated : own * delegation));
    }
    return out;
  };

  /** Voting operations of a period's blocks up to `level`. */
  const votesOf = (index: number, upTo: number): Json[] => {
    const out: Json[] = [];
    for (let level = firstOf(index); level <= upTo && period(level).voting_period.index === index; level++)
      for (const g of block(level).operations[1]) out.push(...g.contents);
    return out;
  };

  it('answers in the Ushuaia shapes', () => {
    const spec = new OpenApiSchemas('ushuaia-openapi.json');
    for (const path of PATHS) {
      const validate = spec.response(`/votes/${path}`);
      for (const level of LEVELS)
        expect(validate(json(level, `votes/${path}`)), `${level}/${path}: ${JSON.stringify(validate.errors)}`).to.equal(
          true,
        );
    }
    expect(rpc(0, 'votes/listings').status).to.equal(404);
    expect(rpc(5, 'votes/nope').status).to.equal(404);
    expect(rpc(5, 'votes/listings/x').status).to.equal(404);
  });

  it('answers the same for the same seed, however the chain was baked', () => {
    const again = new SandboxChain({ seed: 'votes', profile: 'tiny' });
    while (again.headLevel < HEAD) again.bake(7);
    const other = new SandboxNode(again);
    for (const level of LEVELS)
      for (const path of PATHS)
        expect(other.handle('GET', `/chains/main/blocks/${level}/votes/${path}`), `${level}/${path}`).to.deep.equal(
          rpc(level, `votes/${path}`),
        );
  });

  it('reports the periods of the blocks', () => {
    for (const level of LEVELS) {
      expect(json(level, 'votes/current_period'), `${level}`).to.deep.equal(period(level));
      expect(json(level, 'votes/successor_period'), `${level}`).to.deep.equal(period(level + 1));
    }
  });

  it('lists the stake of the previous period’s end, and the ballots and proposals of the blocks so far', () => {
    let ballotsSeen = 0;
    for (const level of LEVELS) {
      const state = stateOf(level);
      const listings = listingsOf(state);
      expect(json(level, 'votes/listings'), `${level}`).to.deep.equal(
        [...listings].sort(([a], [b]) => (a < b ? -1 : 1)).map(([pkh, p]) => ({ pkh, voting_power: String(p) })),
      );
      expect(json(level, 'votes/total_voting_power')).to.equal(
        String([...listings.values()].reduce((s, p) => s + p, 0n)),
      );
      const ops = state === period(level).voting_period.index ? votesOf(state, level) : [];
      const ballots = ops.filter((o) => o.kind === 'ballot');
      ballotsSeen += ballots.length;
      expect(json(level, 'votes/ballot_list'), `${level}`).to.deep.equal(
        ballots.map((b) => ({ pkh: b.source, ballot: b.ballot })).sort((a, b) => (a.pkh < b.pkh ? -1 : 1)),
      );
      const sums: Record<string, bigint> = { yay: 0n, nay: 0n, pass: 0n };
      for (const b of ballots) sums[b.ballot] += listings.get(b.source) ?? 0n;
      expect(json(level, 'votes/ballots'), `${level}`).to.deep.equal({
        yay: String(sums.yay),
        nay: String(sums.nay),
        pass: String(sums.pass),
      });
      const support = new Map<string, Set<string>>();
      for (const o of ops.filter((x) => x.kind === 'proposals'))
        for (const h of o.proposals) support.set(h, (support.get(h) ?? new Set()).add(o.source));
      expect(json(level, 'votes/proposals'), `${level}`).to.deep.equal(
        [...support]
          .sort(([a], [b]) => (a < b ? -1 : 1))
          .map(([h, s]) => [h, String([...s].reduce((t, pkh) => t + (listings.get(pkh) ?? 0n), 0n))]),
      );
    }
    expect(ballotsSeen).to.be.greaterThan(0);
  });

  it('derives the quorum from the participation of past votes, and names the proposal under vote', () => {
    const [min, max] = [BigInt(constants.quorum_min), BigInt(constants.quorum_max)];
    for (const level of LEVELS) {
      const state = stateOf(level);
      let ema = max;
      for (let q = 0; q < state; q++) {
        if (!['exploration', 'promotion'].includes(period(firstOf(q)).voting_period.kind)) continue;
        const listings = listingsOf(q);
        const total = [...listings.values()].reduce((s, p) => s + p, 0n);
        const cast = votesOf(q, HEAD).reduce((s, b) => s + (listings.get(b.source) ?? 0n), 0n);
        ema = (8000n * ema + 2000n * ((cast * 10000n) / total)) / 10000n;
      }
      expect(json(level, 'votes/current_quorum'), `${level}`).to.equal(Number(min + (ema * (max - min)) / 10000n));
      const kind = period(firstOf(state)).voting_period.kind;
      const stage = ['proposal', 'exploration', 'cooldown', 'promotion', 'adoption'].indexOf(kind);
      const proposed = votesOf(state - stage, HEAD).find((o) => o.kind === 'proposals')?.proposals[0];
      expect(json(level, 'votes/current_proposal'), `${level}`).to.equal(kind === 'proposal' ? null : proposed);
    }
  });
});
