import { expect } from 'chai';
import { BUILTIN_PLUGIN_DIR } from '../../framework/app/TzidxApp';
import { ChainRollback } from '../../framework/indexer/ChainRollback';
import { ChainState } from '../../framework/indexer/ChainState';
import { discoverPlugins } from '../../framework/plugins/PluginDiscovery';
import { SandboxChain } from '../../framework/sandbox';
import { indexSandbox } from '../support/IndexHarness';
import { BACKEND } from '../support/TestDatabase';
import { startTestInstance, TestInstance } from '../support/TestInstance';
import { getJson, Obj } from './support/api';
import {
  chainBlocks,
  Denunciation,
  DENUNCIATION_TYPES,
  denunciationsOf,
  expectAmounts,
  expectFlowLinks,
  expectOpRows,
  expectOpSeries,
  Slashing,
  slashingsOf,
} from './support/slashings';

// Why: from Oxford on a denunciation is slashed at a cycle end by block balance updates naming it
// (`delayed_operation_hash`); the indexer links those flows to its op row (`flow.delayed_op_id`) and
// its op row (`/tables/op`, explorer objects, the op series) must show that slashing as the pre-Oxford
// receipt did (accuser reward as volume, offender losses as negative deposit), checked against the
// sandbox's receipts, also across a rollback and a reorg of the slashing block. No recorded block in
// the fixtures or in the public repositories searched (octez, taquito, tzgo, tzkt, pytezos) holds a
// `delayed_operation_hash`; the expected numbers are read from the sandbox's RPC JSON.
// Seed 'explorer' at level 60: two denunciations of one offender in cycle 3, both slashed at the
// end of cycle 4 (level 40), and one in cycle 7 whose slashing is still pending.
const HEAD = 60;
const FINAL = 'public, max-age=86400';
const DENUNCIATIONS = `${DENUNCIATION_TYPES}&limit=500`;

describe(`explorer: Oxford+ denunciations slashed at a cycle end (${BACKEND})`, function () {
  this.timeout(600_000);
  const chain = new SandboxChain({ seed: 'explorer', profile: 'tiny' });
  let t: TestInstance;
  let denunciations: Denunciation[];
  let slashings: Map<string, Slashing>;

  before(async function () {
    chain.bakeTo(HEAD);
    const blocks = chainBlocks(chain);
    denunciations = denunciationsOf(blocks);
    slashings = slashingsOf(blocks);
    t = await startTestInstance({ plugins: discoverPlugins([BUILTIN_PLUGIN_DIR]) });
    // Up to the first slashing block, then the rest: the denunciations' rows are folded into the
    // series rollups by then, as on a live chain.
    const first = Math.min(...[...slashings.values()].map((s) => s.level));
    await indexSandbox(t, chain, { toLevel: first - 1 });
    await indexSandbox(t, chain);
  });
  after(async () => t?.close());

  const expectFigures = (o: Obj, d: Denunciation): void => {
    expect(o).to.include({ accuser: d.accuser, offender: d.offender });
    expectAmounts(o, d, slashings.get(d.hash));
  };

  it('the chain has slashed denunciations (two of one offender in one block) and a pending one', () => {
    const slashed = denunciations.filter((d) => slashings.has(d.hash));
    expect(slashed.length).to.be.at.least(2);
    expect(new Set(slashed.map((d) => d.offender)).size).to.be.below(slashed.length);
    expect(slashed.every((d) => slashings.get(d.hash)!.reward > 0n && slashings.get(d.hash)!.lost > 0n)).to.equal(true);
    expect(denunciations.some((d) => !slashings.has(d.hash))).to.equal(true);
  });

  it('/explorer/op/{hash}: the accuser reward as volume, the offender losses as negative deposit', async () => {
    for (const d of denunciations) {
      const [o] = await getJson<Obj[]>(t, `/explorer/op/${d.hash}`);
      expectFigures(o, d);
    }
  });

  it('a denunciation whose cycle has not ended shows 0', async () => {
    const pending = denunciations.filter((d) => !slashings.has(d.hash));
    for (const d of pending) {
      const [o] = await getJson<Obj[]>(t, `/explorer/op/${d.hash}`);
      expect([o.volume, o.deposit, o.fee, o.reward]).to.deep.equal([0, 0, 0, 0]);
    }
  });

  it('an answer with a denunciation still to be slashed is not cached as final; one slashed is', async () => {
    t.app.container.resolve(ChainState).update({ finalDepth: 1 });
    const cacheOf = async (path: string): Promise<string | null> => (await t.get(path)).headers.get('cache-control');
    for (const d of denunciations) {
      const final = slashings.has(d.hash);
      expect((await cacheOf(`/explorer/op/${d.hash}`)) === FINAL, `${d.hash} final`).to.equal(final);
      const list = await cacheOf(`/explorer/block/${d.level}/operations?${DENUNCIATIONS}`);
      expect(list === FINAL, `block ${d.level} final`).to.equal(final);
    }
  });

  it('block and account operation lists show the same figures', async () => {
    for (const d of denunciations) {
      const lists = await Promise.all([
        getJson<Obj[]>(t, `/explorer/block/${d.level}/operations?${DENUNCIATIONS}`),
        getJson<Obj[]>(t, `/explorer/account/${d.accuser}/operations?${DENUNCIATIONS}`),
        getJson<Obj[]>(t, `/explorer/account/${d.offender}/operations?${DENUNCIATIONS}`),
      ]);
      for (const list of lists) {
        const o = list.find((x) => x.hash === d.hash);
        expect(o, d.hash).to.not.equal(undefined);
        expectFigures(o!, d);
      }
    }
  });

  it('/tables/op holds the same figures; each slashing flow names its denunciation (flow.delayed_op_id)', async () => {
    await expectOpRows(t, denunciations, slashings);
    await expectFlowLinks(t, denunciations, slashings);
  });

  it('/series/op from its rollups counts the figures set after the rows were folded', async () => {
    await expectOpSeries(t);
  });

  it('a rollback below the slashing block takes the figures back to 0, in the table, objects and series', async () => {
    const fork = Math.min(...[...slashings.values()].map((s) => s.level)) - 1;
    const app = t.app;
    // What the indexer does on a reorg (Indexer.rollbackTo): the plugins' hooks around the generic rollback.
    await app.db.writer.transaction(async (trx) => {
      await app.dispatcher.rollingBack(trx, fork);
      await new ChainRollback(app.catalog).rollback(trx, fork);
      await app.dispatcher.rolledBack(trx, fork);
    });
    const kept = denunciations.filter((d) => d.level <= fork);
    expect(kept.length).to.be.at.least(2);
    const none = new Map<string, Slashing>();
    await expectOpRows(t, kept, none);
    await expectFlowLinks(t, kept, none);
    for (const d of kept) expectAmounts((await getJson<Obj[]>(t, `/explorer/op/${d.hash}`))[0], d, undefined);
    await expectOpSeries(t);
  });
});
