import { expect } from 'chai';
import { SandboxChain } from '../../framework/sandbox';
import { mutez, readTable, type CsvRow } from '../core-chain/support/tableReader';
import { getJson, type Obj } from '../explorer/support/api';
import { indexSandbox } from '../support/IndexHarness';
import { BACKEND } from '../support/TestDatabase';
import type { TestInstance } from '../support/TestInstance';
import { startBakingInstance } from './support/bakingInstance';
import { PreParisNode } from './support/PreParisNode';
import { expectSnapshotAt } from './support/snapshotOracle';

// tiny: 8-block cycles, a stake snapshot every 2 blocks (4 a cycle); the reorg replaces levels 38–40,
// the end of cycle 4, which picks among cycle 4's snapshots. The pick is drawn from the block's hash, so a
// replacing branch may draw the same: the chain is reorganized again (before the indexer sees it) until it does not.
const HEAD = 44;
const REDRAWS = 8;
const EVERY = 2;
const OPTIONS = { reorgDepth: 8, batchBlocks: 16 };
const COLUMNS = [
  'cycle',
  'height',
  'index',
  'is_selected',
  'address',
  'baker',
  'is_baker',
  'balance',
  'delegated',
  'n_delegations',
  'active_stake',
  'own_stake',
  'n_stakers',
];
const INCOME = ['balance', 'delegated', 'n_delegations', 'active_stake', 'own_stake', 'n_stakers'];

describe(`baking: Tenderbake's in-cycle stake snapshots and the node's pick (${BACKEND})`, function () {
  this.timeout(300_000);
  const chain = new SandboxChain({ seed: 'presnap', profile: 'tiny' });
  const node = new PreParisNode(chain, EVERY);
  let t: TestInstance;
  let rows: CsvRow[];
  /** The pick among cycle 4's snapshots on the branch the reorg replaced. */
  let pickBefore: number | undefined;

  const ask = async (level: number, path: string): Promise<unknown> => {
    const res = await node.get(`/chains/main/blocks/${level}/${path}`);
    return res.status === 404 ? undefined : JSON.parse(res.body);
  };

  before(async function () {
    chain.bakeTo(HEAD - 4);
    t = await startBakingInstance();
    await indexSandbox(t, chain, OPTIONS, node);
    pickBefore = node.picked(4);
    chain.reorg(3);
    for (let redraw = 1; redraw < REDRAWS && node.picked(4) === pickBefore; redraw++) chain.reorg(3);
    chain.bakeTo(HEAD);
    await indexSandbox(t, chain, OPTIONS, node);
    rows = await readTable(t, 'snapshot', COLUMNS);
  });
  after(async () => t?.close());

  it('takes a snapshot every blocks_per_stake_snapshot blocks, each as the node reports its bakers and delegators then', async () => {
    const taken = [...new Set(rows.map((r) => `${r.height}:${r.index}`))];
    const want: string[] = [];
    for (let l = 1; l <= HEAD; l++) {
      const p = node.levelInfo(l).cycle_position + 1;
      if (p % EVERY === 0) want.push(`${l}:${p / EVERY - 1}`);
    }
    expect(taken.sort()).to.deep.equal(want.sort());
    let delegators = 0;
    for (const key of want) {
      const level = Number(key.split(':')[0]);
      const at = rows.filter((r) => Number(r.height) === level);
      delegators += (
        await expectSnapshotAt(
          ask,
          level,
          at,
          at.every((r) => r.is_selected !== 'true'),
        )
      ).delegators;
    }
    expect(delegators).to.be.greaterThan(0);
  });

  it('marks the snapshot the node picked at each cycle end (re-picked after the reorg), and no other', () => {
    const ends = [...new Set(rows.map((r) => Number(r.cycle)))].filter((c) => node.cycleEnd(c) !== undefined);
    const want = ends.map((c) => `${c}:${node.picked(c)}`);
    const selected = [...new Set(rows.filter((r) => r.is_selected === 'true').map((r) => `${r.cycle}:${r.index}`))];
    expect(selected.sort()).to.deep.equal(want.sort());
    // Every row of a picked snapshot is marked.
    for (const key of want)
      expect(
        rows.filter((r) => `${r.cycle}:${r.index}` === key).every((r) => r.is_selected === 'true'),
        key,
      ).to.equal(true);
    expect(node.picked(4), 'the reorg changed the pick of cycle 4').to.not.equal(pickBefore);
  });

  it("the picked snapshot's bakers carry the stake the node counted for the rights it gave", () => {
    const picked = rows.filter((r) => r.is_selected === 'true' && r.is_baker === 'true');
    expect(picked.length).to.be.greaterThan(0);
    for (const r of picked) {
      const counted = node.counted(Number(r.cycle) + node.delay + 1)!;
      expect(mutez(r.active_stake), `${r.cycle}_${r.address}`).to.equal(
        counted.find((s) => s.address === r.address)?.power ?? 0n,
      );
    }
  });

  it("a baker's income row, the snapshot route and the cycle object use the picked snapshot", async () => {
    const income = await readTable(t, 'income', ['cycle', 'address', ...INCOME, 'luck']);
    const lag = node.delay + 1;
    let filled = 0;
    for (const r of income) {
      const base = Number(r.cycle) - lag;
      const snap = rows.find(
        (s) =>
          s.is_baker === 'true' &&
          Number(s.cycle) === base &&
          Number(s.index) === node.picked(base) &&
          s.address === r.address,
      );
      expect(
        INCOME.map((c) => r[c]),
        `${r.cycle}_${r.address}`,
      ).to.deep.equal(INCOME.map((c) => (snap ? snap[c] : '')));
      if (!snap) continue;
      filled++;
      const o = await getJson<Obj>(t, `/explorer/bakers/${r.address}/snapshot/${r.cycle}`);
      expect(o).to.include({
        baking_cycle: Number(r.cycle),
        snapshot_cycle: base,
        snapshot_height: Number(snap.height),
        snapshot_index: Number(snap.index),
        n_delegations: Number(snap.n_delegations),
      });
      const mine = rows.filter((d) => d.is_baker !== 'true' && d.baker === r.address && d.height === snap.height);
      expect((o.delegators as Obj[]).map((d) => d.address)).to.have.members(mine.map((d) => d.address));
      const cycle = await getJson<Obj>(t, `/explorer/cycle/${r.cycle}`);
      expect(cycle).to.include({ snapshot_height: Number(snap.height), snapshot_index: Number(snap.index) });
    }
    expect(filled).to.be.greaterThan(0);
    expect(income.some((r) => r.luck !== '')).to.equal(true);
  });

  it('without the pick from the node: snapshots are taken, none is selected, income snapshot columns and luck stay null', async () => {
    const bare = await startBakingInstance();
    try {
      await indexSandbox(bare, chain, OPTIONS, new PreParisNode(chain, EVERY, false));
      const snaps = await readTable(bare, 'snapshot', COLUMNS);
      expect(snaps.length).to.equal(rows.length);
      expect(snaps.some((r) => r.is_selected === 'true')).to.equal(false);
      const income = await readTable(bare, 'income', ['cycle', 'address', ...INCOME, 'luck']);
      expect(income.length).to.be.greaterThan(0);
      expect(income.every((r) => [...INCOME, 'luck'].every((c) => r[c] === ''))).to.equal(true);
    } finally {
      await bare.close();
    }
  });
});
