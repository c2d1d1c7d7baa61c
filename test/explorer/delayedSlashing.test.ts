import { expect } from 'chai';
import { BUILTIN_PLUGIN_DIR } from '../../framework/app/TzidxApp';
import { ChainState } from '../../framework/indexer/ChainState';
import { discoverPlugins } from '../../framework/plugins/PluginDiscovery';
import { SandboxChain } from '../../framework/sandbox';
import type { Json } from '../chain/support/Json';
import { indexSandbox } from '../support/IndexHarness';
import { BACKEND } from '../support/TestDatabase';
import { startTestInstance, TestInstance } from '../support/TestInstance';
import { getJson, Obj } from './support/api';
import { tezToMutezNumber } from './support/rawOperations';

// Why: from Oxford on a denunciation is slashed at a cycle end by block balance updates naming it
// (`delayed_operation_hash`); its op objects must show that slashing as the pre-Oxford receipt did
// (accuser reward as volume, offender losses as negative deposit), checked against the sandbox's
// receipts. No recorded block in the fixtures holds a denunciation and its cycle-end slashing.
// Seed 'explorer' at level 60: two denunciations of one offender in cycle 3, both slashed at the
// end of cycle 4 (level 40), and one in cycle 7 whose slashing is still pending.
const HEAD = 60;
const FINAL = 'public, max-age=86400';
const DENUNCIATIONS = 'type.in=double_baking,double_endorsement,double_preendorsement&limit=500';

interface Denunciation {
  hash: string;
  level: number;
  offender: string;
  accuser: string;
}

interface Slashing {
  reward: bigint;
  lost: bigint;
}

/** The offender's debits and the accuser's credits that the block receipts list for each denunciation. */
function slashingsOf(blocks: readonly Json[]): Map<string, Slashing> {
  const out = new Map<string, Slashing>();
  for (const block of blocks)
    for (const u of block.metadata.balance_updates as Json[]) {
      if (u.origin !== 'delayed_operation') continue;
      const s = out.get(u.delayed_operation_hash) ?? { reward: 0n, lost: 0n };
      const change = BigInt(u.change);
      if (u.kind === 'contract' && change > 0n) s.reward += change;
      if (u.kind === 'freezer' && change < 0n) s.lost -= change;
      out.set(u.delayed_operation_hash, s);
    }
  return out;
}

function denunciationsOf(blocks: readonly Json[]): Denunciation[] {
  const out: Denunciation[] = [];
  for (const block of blocks)
    for (const group of (block.operations as Json[][]).flat())
      for (const c of group.contents as Json[]) {
        if (!String(c.kind).startsWith('double_')) continue;
        const { punished_delegate: offender, rewarded_delegate: accuser } = c.metadata;
        out.push({ hash: group.hash, level: block.header.level, offender, accuser });
      }
  return out;
}

describe(`explorer: Oxford+ denunciations slashed at a cycle end (${BACKEND})`, function () {
  this.timeout(600_000);
  const chain = new SandboxChain({ seed: 'explorer', profile: 'tiny' });
  let t: TestInstance;
  let denunciations: Denunciation[];
  let slashings: Map<string, Slashing>;

  before(async function () {
    chain.bakeTo(HEAD);
    t = await startTestInstance({ plugins: discoverPlugins([BUILTIN_PLUGIN_DIR]) });
    await indexSandbox(t, chain);
    const blocks: Json[] = [];
    for (let level = 1; level <= chain.headLevel; level++) {
      blocks.push(JSON.parse(chain.blockJson(chain.at(level)!)) as Json);
    }
    denunciations = denunciationsOf(blocks);
    slashings = slashingsOf(blocks);
  });
  after(async () => t?.close());

  const expectFigures = (o: Obj, d: Denunciation): void => {
    const s = slashings.get(d.hash) ?? { reward: 0n, lost: 0n };
    expect(o).to.include({ accuser: d.accuser, offender: d.offender });
    expect(tezToMutezNumber(o.volume), `${d.hash} volume`).to.equal(s.reward);
    expect(tezToMutezNumber(o.deposit), `${d.hash} deposit`).to.equal(-s.lost);
    expect(tezToMutezNumber(o.fee), `${d.hash} fee`).to.equal(0n);
    expect(tezToMutezNumber(o.reward), `${d.hash} reward`).to.equal(0n);
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
      expect(await cacheOf(`/explorer/op/${d.hash}`) === FINAL, `${d.hash} final`).to.equal(final);
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
});
