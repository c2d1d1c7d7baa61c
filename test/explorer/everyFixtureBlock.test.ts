import { expect } from 'chai';
import { BUILTIN_PLUGIN_DIR } from '../../framework/app/TzidxApp';
import type { RawBlock } from '../../framework/chain';
import { discoverPlugins } from '../../framework/plugins/PluginDiscovery';
import type { Json } from '../chain/support/Json';
import { expectedFromBlock } from '../chain/support/rawBlockWalk';
import { listFixtures, readFixtureJson } from '../support/fixtures';
import { indexBlocks } from '../support/IndexHarness';
import { BACKEND } from '../support/TestDatabase';
import { startTestInstance, TestInstance } from '../support/TestInstance';
import { getJson, Obj } from './support/api';
import { checkOperation } from './support/checkOperation';
import { blockCycle, blockRound, expectedGroup, tezToMutezNumber, votingPeriodKind } from './support/rawOperations';

// Full blocks: recordings trimmed of their receipt's level (cycle) are left to the normalizer's tests.
const isFullBlock = (raw: Json): boolean =>
  typeof raw.hash === 'string' &&
  Number.isInteger(raw.header?.level) &&
  (raw.metadata?.level_info ?? raw.metadata?.level) !== undefined;

/**
 * Every recorded full block of every protocol, indexed into one instance in level order (the
 * indexer accepts gaps; consecutive recordings index as a chain), and after each, its block object
 * and every operation group of it through /explorer/op against the node JSON. The blocks of other networks share the
 * instance: only operation-level values are compared, which need nothing from earlier blocks.
 */
describe(`explorer: every recorded block, operation by operation (${BACKEND})`, function () {
  this.timeout(600_000);
  const byLevel = new Map<number, Json>();
  for (const file of listFixtures('tezos-rpc', 'blocks')) {
    const raw = readFixtureJson<Json>(file);
    if (isFullBlock(raw) && !byLevel.has(raw.header.level)) byLevel.set(raw.header.level, raw);
  }
  const blocks = [...byLevel.values()].sort((a, b) => a.header.level - b.header.level);
  let t: TestInstance;

  before(async function () {
    t = await startTestInstance({ plugins: discoverPlugins([BUILTIN_PLUGIN_DIR]) });
  });
  after(async () => t?.close());

  it('covers the recorded protocols', () => {
    expect(new Set(blocks.map((b) => b.protocol)).size).to.be.greaterThan(8);
  });

  for (const raw of blocks) {
    it(`${raw.header.level} (${String(raw.protocol).slice(0, 8)})`, async function () {
      await indexBlocks(t, [raw as unknown as RawBlock]);
      const level: number = raw.header.level;
      const block = await getJson(t, `/explorer/block/${raw.hash}`);
      const walk = expectedFromBlock(raw);
      expect(block).to.include({
        hash: raw.hash,
        height: level,
        protocol: raw.protocol,
        time: raw.header.timestamp,
        cycle: blockCycle(raw),
        round: blockRound(raw),
      });
      expect(block).to.include({
        baker: raw.metadata.baker,
        proposer: raw.metadata.proposer ?? raw.metadata.baker,
        voting_period_kind: votingPeriodKind(raw),
      });
      expect(block.nonce).to.equal(raw.header.proof_of_work_nonce);
      expect(tezToMutezNumber(block.fee)).to.equal(walk.fee);
      expect(BigInt(block.gas_used)).to.equal(walk.gasUsed);
      for (const group of (raw.operations as Json[][]).flat()) {
        const expected = expectedGroup(group, raw);
        const objects = await getJson<Obj[]>(t, `/explorer/op/${group.hash}?prim=1`);
        expect(
          objects.map((o) => o.type),
          group.hash,
        ).to.deep.equal(expected.map((e) => e.type));
        objects.forEach((o, i) => checkOperation(o, expected[i], raw, level));
      }
    });
  }
});
