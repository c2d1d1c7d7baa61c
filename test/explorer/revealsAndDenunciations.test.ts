import { getPkhfromPk } from '@taquito/utils';
import { expect } from 'chai';
import { BUILTIN_PLUGIN_DIR } from '../../framework/app/TzidxApp';
import type { RawBlock } from '../../framework/chain';
import { discoverPlugins } from '../../framework/plugins/PluginDiscovery';
import type { Json } from '../chain/support/Json';
import { readFixtureJson } from '../support/fixtures';
import { indexBlocks } from '../support/IndexHarness';
import { BACKEND } from '../support/TestDatabase';
import { startTestInstance, TestInstance } from '../support/TestInstance';
import { getJson, Obj } from './support/api';
import { tezToMutezNumber } from './support/rawOperations';

// Why: the spec's op fields for reveals (`data`) and denunciations (accuser reward, offender losses,
// their flows), checked on recorded blocks against the node's own receipts.
const DENUNCIATION_BLOCK = 'tezos-rpc/blocks/from-test-code/ghostnet-96849.json'; // Ithaca: double baking
const REVEAL_BLOCK = 'tezos-rpc/blocks/legacy-pre-ithaca/mainnet/mainnet-979686.json'; // Carthage: two reveals

const contentsOf = (raw: Json): Array<{ hash: string; content: Json }> =>
  (raw.operations as Json[][])
    .flat()
    .flatMap((g) => (g.contents as Json[]).map((content) => ({ hash: g.hash as string, content })));

interface Figures {
  offender: string;
  accuser: string;
  reward: bigint;
  lost: Record<string, bigint>;
}

/** What a (pre-Oxford) denunciation's receipt says: the offender's frozen losses by category, the accuser's reward. */
function receiptFigures(updates: Json[]): Figures {
  const offender = updates.find((u) => u.kind === 'freezer' && BigInt(u.change) < 0n)!.delegate as string;
  const owner = (u: Json): string => u.contract ?? u.delegate;
  const paid = (u: Json): boolean => u.kind === 'contract' || u.kind === 'freezer';
  const credited = updates.filter((u) => BigInt(u.change) > 0n && paid(u) && owner(u) !== offender);
  const lost: Record<string, bigint> = { deposits: 0n, fees: 0n, rewards: 0n };
  for (const u of updates) {
    if (u.kind === 'freezer' && u.delegate === offender && BigInt(u.change) < 0n) lost[u.category] -= BigInt(u.change);
  }
  const reward = credited.reduce((s, u) => s + BigInt(u.change), 0n);
  return { offender, accuser: owner(credited[0]), reward, lost };
}

describe(`explorer: reveals and denunciations on recorded blocks (${BACKEND})`, function () {
  this.timeout(300_000);
  const denunciationBlock = readFixtureJson<Json>(DENUNCIATION_BLOCK);
  const revealBlock = readFixtureJson<Json>(REVEAL_BLOCK);
  let t: TestInstance;

  before(async function () {
    t = await startTestInstance({ plugins: discoverPlugins([BUILTIN_PLUGIN_DIR]) });
    await indexBlocks(t, [denunciationBlock, revealBlock] as unknown as RawBlock[]);
  });
  after(async () => t?.close());

  it("a reveal's data is the revealed public key (as the SDK's server sends it), its hash the sender", async () => {
    const reveals = contentsOf(revealBlock).filter((c) => c.content.kind === 'reveal');
    expect(reveals.length).to.equal(2);
    for (const { hash, content } of reveals) {
      const [o] = (await getJson<Obj[]>(t, `/explorer/op/${hash}`)).filter((x) => x.type === 'reveal');
      expect(o.data, hash).to.equal(content.public_key);
      expect(getPkhfromPk(o.data), hash).to.equal(o.sender);
    }
  });

  it('a denunciation: accuser reward as volume, offender losses as negative fee/reward/deposit, flows', async () => {
    const denunciations = contentsOf(denunciationBlock).filter((c) => c.content.kind.startsWith('double_'));
    expect(denunciations.length).to.equal(1);
    for (const { hash, content } of denunciations) {
      const want = receiptFigures(content.metadata.balance_updates as Json[]);
      expect(want.reward > 0n, 'the receipt pays the accuser').to.equal(true);
      expect(want.lost.deposits > 0n, 'the receipt slashes deposits').to.equal(true);
      const [o] = await getJson<Obj[]>(t, `/explorer/op/${hash}`);
      expect(o).to.include({ type: 'double_baking', accuser: want.accuser, offender: want.offender });
      expect(o).to.include({ sender: want.accuser, receiver: want.offender });
      expect(tezToMutezNumber(o.volume), 'volume').to.equal(want.reward);
      expect(tezToMutezNumber(o.deposit), 'deposit').to.equal(-want.lost.deposits);
      expect(tezToMutezNumber(o.fee), 'fee').to.equal(-want.lost.fees);
      expect(tezToMutezNumber(o.reward), 'reward').to.equal(-want.lost.rewards);
      const columns = 'address,category,operation,amount_in,amount_out,is_burned';
      const flows = await getJson<unknown[][]>(t, `/tables/flow?op=${hash}&columns=${columns}`);
      const rows = flows.map(([address, category, operation, amountIn, amountOut, isBurned]) => {
        const [inflow, outflow] = [tezToMutezNumber(amountIn), tezToMutezNumber(amountOut)];
        return { address, category, operation, in: inflow, out: outflow, isBurned };
      });
      expect(
        rows.every((r) => r.operation === 'penalty'),
        'penalty flows',
      ).to.equal(true);
      const sum = (address: string, side: 'in' | 'out', category: string) =>
        rows.filter((r) => r.address === address && r.category === category).reduce((s, r) => s + r[side], 0n);
      expect(sum(want.offender, 'out', 'deposits'), 'offender deposits out').to.equal(want.lost.deposits);
      const slashed = rows.filter((r) => r.address === want.offender && r.out > 0n);
      expect(
        slashed.every((r) => r.isBurned),
        'the slashed deposits are burned',
      ).to.equal(true);
      expect(sum(want.accuser, 'in', 'balance'), 'accuser reward in').to.equal(want.reward);
    }
  });
});
