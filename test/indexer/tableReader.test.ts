import { expect } from 'chai';
import { HandlerRegistry, PluginClass } from '../../framework';
import { SandboxChain } from '../../framework/sandbox';
import { indexSandbox } from '../support/IndexHarness';
import { BACKEND } from '../support/TestDatabase';
import { startTestInstance } from '../support/TestInstance';
import { ProbePlugin } from './plugins/probe/plugin';

/** A plugin that reads the probe's table each block and tries to write through the reader once. */
const seen = { counts: [] as number[], errors: [] as string[] };
class ReaderPlugin {
  static readonly manifest = { name: 'reader', dependsOn: ['probe'] };
  setup() {
    return { handlers: (r: HandlerRegistry) => this.handlers(r) };
  }
  private handlers(r: HandlerRegistry): void {
    r.onBlock(async (block, ctx) => {
      const [{ n }] = await ctx.read('blocks_seen').count({ n: '*' });
      seen.counts.push(Number(n));
      if (block.level === 5) {
        for (const attempt of [
          () => ctx.read('blocks_seen').delete(),
          () => ctx.read('blocks_seen').where('height', 1).update({ n_ops: 0 }),
        ]) {
          try {
            await attempt();
          } catch (e) {
            seen.errors.push((e as Error).message);
          }
        }
      }
    });
  }
}

describe(`indexer: the read-only table reader (${BACKEND})`, () => {
  it('reads committed rows inside the batch and refuses writes', async () => {
    const chain = new SandboxChain({ seed: 'reader', profile: 'tiny' });
    chain.bake(8);
    const t = await startTestInstance({
      catalogYaml: 'version: 1\nplugins: {}\n',
      plugins: [ProbePlugin as unknown as PluginClass, ReaderPlugin as unknown as PluginClass],
    });
    try {
      // One block per batch (all blocks are near the head): each block sees the rows of the blocks before it.
      await indexSandbox(t, chain, { reorgDepth: 100, batchBlocks: 1 });
      expect(seen.counts).to.deep.equal(Array.from({ length: chain.headLevel + 1 }, (_, i) => i));
      expect(seen.errors).to.have.length(2);
      for (const m of seen.errors) expect(m).to.match(/read-only/);
      const res = await t.get('/tables/blocks_seen?columns=height&limit=100');
      expect(((await res.json()) as unknown[]).length).to.equal(chain.headLevel + 1);
    } finally {
      await t.close();
    }
  });
});
