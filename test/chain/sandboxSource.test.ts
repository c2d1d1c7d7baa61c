import { expect } from 'chai';
import { BlockNormalizer, RpcBlockSource, type BlockRef, type NormalizeWarning } from '../../framework/chain';
import { SandboxChain, SandboxRpcTransport } from '../../framework/sandbox';
import { expectedFromBlock } from './support/rawBlockWalk';

// The sandbox simulates an Ushuaia node with every operation family (staking, drains, denunciations,
// events, rollups…), a much wider spread of kinds than the recorded fixtures.
describe('chain/RpcBlockSource over the sandbox node', function () {
  this.timeout(120_000);
  const chain = new SandboxChain({ seed: 'chain-input-layer', profile: 'tiny' });
  chain.bake(160);
  const source = new RpcBlockSource(new SandboxRpcTransport(chain));

  it('normalizes every block without warnings and matches the independent walk', async () => {
    const head = await source.head();
    expect(head.level).to.equal(chain.headLevel);
    const kinds = new Set<string>();
    for (let level = await source.firstLevel(); level <= head.level; level++) {
      const raw = await source.blockAt(level);
      expect(raw?.header.level).to.equal(level);
      const warnings: NormalizeWarning[] = [];
      const block = new BlockNormalizer({ onWarning: (w) => warnings.push(w) }).normalize(raw);
      expect(warnings, `level ${level}`).to.deep.equal([]);
      const expected = expectedFromBlock(raw as never);
      const counts: Record<string, number> = {};
      for (const op of block.operations) {
        counts[op.type] = (counts[op.type] ?? 0) + 1;
        kinds.add(op.kind);
      }
      expect(counts, `level ${level}`).to.deep.equal(expected.typeCounts);
      expect(
        block.operations.reduce((s, o) => s + o.fee, 0n),
        `fee at ${level}`,
      ).to.equal(expected.fee);
      expect(
        block.operations.reduce((s, o) => s + o.volume, 0n),
        `volume at ${level}`,
      ).to.equal(expected.volume);
      expect(
        block.operations.reduce((s, o) => s + o.gasUsed, 0n),
        `gas at ${level}`,
      ).to.equal(expected.gasUsed);
      expect(
        block.operations.reduce((s, o) => s + o.burned, 0n),
        `burned at ${level}`,
      ).to.equal(expected.burned);
      expect(block.operations.filter((o) => o.isContract).length, `calls at ${level}`).to.equal(expected.contractCalls);
    }
    expect(kinds.size).to.be.greaterThan(10);
  });

  it('follows new heads and a branch switch', async () => {
    const controller = new AbortController();
    const seen: BlockRef[] = [];
    const following = (async () => {
      for await (const ref of source.heads(controller.signal)) {
        seen.push(ref);
        if (seen.length === 1) chain.bake(2);
        if (seen.length === 3) chain.reorg(2);
        if (seen.length === 4) controller.abort();
      }
    })();
    await following;
    expect(seen.map((s) => s.level)).to.deep.equal([160, 161, 162, 162]);
    expect(seen[3].hash).to.not.equal(seen[2].hash);
    // The new head builds on a replaced block 161: the stream alone cannot tell, the predecessor does.
    expect(seen[3].predecessor).to.not.equal(seen[1].hash);
    expect((await source.blockAt(162))?.hash).to.equal(seen[3].hash);
  });
});
