import { expect } from 'chai';
import { SandboxChain, SandboxRpcTransport } from '../../framework/sandbox';
import { blocksOf, effectiveUpdateLists, type BalanceUpdate, type Block } from './chainWalk';

interface Constants {
  blocks_per_cycle: number;
  consensus_committee_size: number;
  consensus_rights_delay: number;
  global_limit_of_staking_over_baking: number;
  limit_of_delegation_over_baking: number;
  edge_of_staking_over_delegation: number;
  minimal_stake: string;
  minimal_frozen_stake: string;
}

type Distribution = Map<string, bigint>;

/** Mutez per owner, replayed from balance updates: spendable, own frozen, external frozen, unstaked. */
class StakeReplay {
  readonly spendable = new Map<string, bigint>();
  readonly ownFrozen = new Map<string, bigint>();
  readonly externalFrozen = new Map<string, bigint>();
  readonly unstaked = new Map<string, bigint>();

  apply(lists: BalanceUpdate[][]): void {
    const add = (m: Map<string, bigint>, k: string, v: bigint) => m.set(k, (m.get(k) ?? 0n) + v);
    for (const list of lists)
      for (const u of list) {
        const change = BigInt(u.change);
        const staker = u.staker as Record<string, string> | undefined;
        if (u.kind === 'contract') add(this.spendable, u.contract as string, change);
        else if (u.kind === 'freezer' && u.category === 'deposits' && staker) {
          const own = staker.baker_own_stake ?? staker.baker_edge;
          if (own) add(this.ownFrozen, own, change);
          else add(this.externalFrozen, staker.delegate, change);
        } else if (u.kind === 'freezer' && u.category === 'unstaked_deposits' && staker)
          add(this.unstaked, staker.delegate, change);
      }
  }

  /** Baking power from the protocol's formula, with the delegators the node lists for the baker. */
  power(c: Constants, baker: string, delegators: string[]): bigint {
    const own = this.ownFrozen.get(baker) ?? 0n;
    const external = this.externalFrozen.get(baker) ?? 0n;
    const delegated =
      delegators.reduce((s, d) => s + (this.spendable.get(d) ?? 0n), 0n) + (this.unstaked.get(baker) ?? 0n);
    const stakingCap = own * BigInt(c.global_limit_of_staking_over_baking);
    const allowed = external < stakingCap ? external : stakingCap;
    const frozen = own + allowed;
    const uncapped = delegated + external - allowed;
    const delegationCap = own * BigInt(c.limit_of_delegation_over_baking);
    const counted = uncapped < delegationCap ? uncapped : delegationCap;
    if (own < BigInt(c.minimal_frozen_stake) || frozen + counted < BigInt(c.minimal_stake)) return 0n;
    return frozen + counted / BigInt(c.edge_of_staking_over_delegation);
  }
}

describe('sandbox rights and stake snapshots', function () {
  const chain = new SandboxChain({ seed: 'rights', profile: 'tiny' });
  const t = new SandboxRpcTransport(chain);
  const getJson = async <T>(path: string): Promise<T> => {
    const res = await t.get(`/chains/main/blocks/${path}`);
    expect(res.status, `${path}: ${res.body}`).to.equal(200);
    return JSON.parse(res.body) as T;
  };
  const attestationRights = (block: string | number, cycle: number) =>
    getJson<{ level: number; delegates: { delegate: string; first_slot: number; attesting_power: number }[] }[]>(
      `${block}/helpers/attestation_rights?cycle=${cycle}`,
    );

  let c: Constants;
  let blocks: Block[];
  let cycle7BeforeReorg: unknown;
  /** Distributions expected from the replayed stake, by cycle. */
  const expected = new Map<number, Distribution>();
  let lastKnownCycle: number;

  before(async function () {
    chain.bake(44);
    // Rights of cycle 7 are fixed at the end of cycle 4 (level 40); this reorg rebuilds that block.
    cycle7BeforeReorg = await attestationRights('head', 7);
    chain.reorg(6);
    chain.bake(36);
    c = await getJson<Constants>('head/context/constants');
    blocks = blocksOf(chain);
    const cycleOf = (level: number) => Math.floor((level - 1) / c.blocks_per_cycle);
    lastKnownCycle = cycleOf(chain.headLevel + 1) + c.consensus_rights_delay;
    const bakers = await getJson<string[]>('head/context/delegates');

    // Cycles 0 … delay: the stake right after the bootstrap (block 1's migration updates).
    const bootstrap = new StakeReplay();
    bootstrap.apply(effectiveUpdateLists(blocks[0]).map((l) => l.filter((u) => u.origin === 'migration')));
    const initial: Distribution = new Map();
    for (const b of bakers)
      initial.set(
        b,
        bootstrap.power(c, b, (await getJson<{ delegators: string[] }>(`1/context/delegates/${b}`)).delegators),
      );
    for (let cycle = 0; cycle <= c.consensus_rights_delay; cycle++) expected.set(cycle, initial);

    // Later cycles: the stake at the end of cycle − delay − 1.
    const replay = new StakeReplay();
    for (const block of blocks) {
      replay.apply(effectiveUpdateLists(block));
      const level = block.header.level;
      if (level % c.blocks_per_cycle !== 0) continue;
      const d: Distribution = new Map();
      for (const b of bakers)
        d.set(
          b,
          replay.power(c, b, (await getJson<{ delegators: string[] }>(`${level}/context/delegates/${b}`)).delegators),
        );
      expected.set(cycleOf(level) + c.consensus_rights_delay + 1, d);
    }
  });

  it('the distribution of each cycle is the stake replayed at the end of cycle − consensus_rights_delay − 1', async function () {
    const headCycle = Math.floor((chain.headLevel - 1) / c.blocks_per_cycle);
    for (let cycle = 0; cycle <= headCycle; cycle++) {
      const level = cycle * c.blocks_per_cycle + 1;
      const [total, shares] = await getJson<[string, [{ delegate: string; consensus_pkh: string }, string][]]>(
        `${level}/helpers/baking_power_distribution_for_current_cycle`,
      );
      const want = [...(expected.get(cycle) as Distribution)]
        .filter(([, p]) => p > 0n)
        .sort(([a], [b]) => (a < b ? -1 : 1));
      expect(
        shares.map(([d, p]) => [d.delegate, BigInt(p)]),
        `cycle ${cycle}`,
      ).to.deep.equal(want);
      expect(BigInt(total)).to.equal(want.reduce((s, [, p]) => s + p, 0n));
      expect(await getJson<string>(`${level}/helpers/total_baking_power`)).to.equal(total);
    }
    // Rights follow the stake: the distributions are not all the same.
    const distinct = new Set([...expected.values()].map((d) => JSON.stringify([...d].map(([k, v]) => [k, String(v)]))));
    expect(distinct.size).to.be.greaterThan(5);
  });

  it('the baking power the node reports at a cycle end is what the later cycle draws from', async function () {
    for (let cycle = c.consensus_rights_delay + 1; cycle <= lastKnownCycle; cycle++) {
      const end = (cycle - c.consensus_rights_delay) * c.blocks_per_cycle;
      for (const [baker, power] of expected.get(cycle) as Distribution) {
        const info = await getJson<{ baking_power: string; total_staked: string; own_staked: string }>(
          `${end}/context/delegates/${baker}`,
        );
        expect(BigInt(info.baking_power), `${baker} at ${end}`).to.equal(power);
        expect(await getJson<string>(`${end}/context/delegates/${baker}/baking_power`)).to.equal(info.baking_power);
        expect(await getJson<string>(`${end}/context/delegates/${baker}/current_frozen_deposits`)).to.equal(
          info.total_staked,
        );
      }
    }
  });

  it('attestation rights of every level give each baker its share of the committee', async function () {
    for (let cycle = 0; cycle <= lastKnownCycle; cycle++) {
      const d = expected.get(cycle) as Distribution;
      const total = [...d.values()].reduce((s, p) => s + p, 0n);
      const size = BigInt(c.consensus_committee_size);
      const floors = new Map([...d].map(([b, p]) => [b, Number((p * size) / total)]));
      const remainder = c.consensus_committee_size - [...floors.values()].reduce((s, f) => s + f, 0);
      const rights = await attestationRights('head', cycle);
      expect(rights.map((r) => r.level)).to.deep.equal(
        Array.from({ length: c.blocks_per_cycle }, (_, i) => cycle * c.blocks_per_cycle + 1 + i),
      );
      for (const r of rights) {
        expect(
          r.delegates.reduce((s, x) => s + x.attesting_power, 0),
          `level ${r.level}`,
        ).to.equal(c.consensus_committee_size);
        expect(new Set(r.delegates.map((x) => x.first_slot)).size).to.equal(r.delegates.length);
        for (const x of r.delegates) {
          const floor = floors.get(x.delegate);
          expect((d.get(x.delegate) ?? 0n) > 0n, `${x.delegate} has rights at ${r.level} without stake`).to.equal(true);
          expect(x.attesting_power).to.be.within(floor as number, (floor as number) + remainder);
        }
        for (const [baker, floor] of floors)
          if (floor > 0)
            expect(
              r.delegates.some((x) => x.delegate === baker),
              `${baker} at ${r.level}`,
            ).to.equal(true);
      }
    }
    // The reorg rebuilt the end of cycle 4, so cycle 7 was drawn again from the new branch's stake.
    expect(await attestationRights('head', 7)).to.not.deep.equal(cycle7BeforeReorg);
  });

  it('each block was baked by the holder of its round and attested by its predecessor committee', async function () {
    for (const block of blocks) {
      const level = block.header.level;
      const round = parseInt((block.header.fitness as string[])[4], 16);
      const baking = await getJson<{ delegate: string; round: number }[]>(
        `head/helpers/baking_rights?level=${level}&max_round=${round}&all=true`,
      );
      expect(baking.find((r) => r.round === round)?.delegate, `level ${level}`).to.equal(
        (block.metadata as unknown as { baker: string }).baker,
      );
      if (level < 2) continue;
      const [committee] = await getJson<
        { delegates: { delegate: string; first_slot: number; attesting_power: number }[] }[]
      >(`head/helpers/attestation_rights?level=${level - 1}`);
      const byDelegate = new Map(committee.delegates.map((x) => [x.delegate, x]));
      let attesters = 0;
      for (const op of block.operations[0])
        for (const content of op.contents) {
          const m = content.metadata as unknown as {
            delegate?: string;
            consensus_power?: { slots: number };
            committee?: { delegate: string; consensus_power: { slots: number } }[];
          };
          for (const a of m.committee ?? [
            { delegate: m.delegate as string, consensus_power: m.consensus_power as { slots: number } },
          ]) {
            if ((content.level ?? (content.consensus_content as { level: number } | undefined)?.level) !== level - 1)
              continue;
            expect(a.consensus_power.slots, `${a.delegate} attesting ${level - 1}`).to.equal(
              byDelegate.get(a.delegate)?.attesting_power,
            );
            attesters++;
          }
        }
      expect(attesters, `level ${level}`).to.be.greaterThan(0);
    }
  });

  it('rights further than consensus_rights_delay cycles ahead are refused with a JSON error', async function () {
    for (const [block, known] of [
      [39, 6],
      [40, 7],
      [chain.headLevel, lastKnownCycle],
    ]) {
      expect(
        (await t.get(`/chains/main/blocks/${block}/helpers/baking_rights?cycle=${known}`)).status,
        `cycle ${known} at ${block}`,
      ).to.equal(200);
      const refused = await t.get(`/chains/main/blocks/${block}/helpers/attestation_rights?cycle=${known + 1}`);
      expect(refused.status).to.equal(400);
      expect(JSON.parse(refused.body)[0].message).to.match(/not known/);
    }
  });
});
