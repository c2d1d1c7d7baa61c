import { expect } from 'chai';
import { BUILTIN_PLUGIN_DIR } from '../../framework/app/TzidxApp';
import { discoverPlugins } from '../../framework/plugins/PluginDiscovery';
import { SandboxChain, SandboxRpcTransport } from '../../framework/sandbox';
import { indexSandbox } from '../support/IndexHarness';
import { BACKEND } from '../support/TestDatabase';
import { startTestInstance } from '../support/TestInstance';

/**
 * The demo chain's genesis holds hundreds of big map keys, read back in one batch: a long row-value
 * IN list there once left PGlite's transaction state broken (the next BEGIN failed).
 */
describe(`bigmaps: the demo chain's bootstrap big maps in one batch (${BACKEND})`, function () {
  this.timeout(120_000);

  it('indexes block after block past the genesis big maps, every bootstrap key live', async function () {
    const chain = new SandboxChain({ seed: 1, profile: 'demo' });
    chain.bake(3);
    const t = await startTestInstance({
      plugins: discoverPlugins([BUILTIN_PLUGIN_DIR]),
      enabled: ['core-chain', 'bigmaps'],
    });
    try {
      const status = await indexSandbox(t, chain, { batchBlocks: 1 });
      expect(status.indexed).to.equal(chain.headLevel);
      const keys = (await (await t.get('/tables/bigmap_values?columns=bigmap_id&limit=50000')).json()) as number[][];
      expect(keys.length).to.be.greaterThan(300);
      // Every key the node lists for each big map at the head is live in the index, and no other.
      const transport = new SandboxRpcTransport(chain);
      const ids = ((await (await t.get('/tables/bigmaps?columns=bigmap_id&limit=50000')).json()) as number[][]).map(
        (r) => r[0],
      );
      let listed = 0;
      for (const id of ids) {
        const res = await transport.get(`/chains/main/blocks/head/context/big_maps/${id}`);
        const count = res.status === 404 ? 0 : (JSON.parse(res.body) as unknown[]).length;
        expect(keys.filter((k) => k[0] === id).length, `bigmap ${id}`).to.equal(count);
        listed += count;
      }
      expect(listed).to.equal(keys.length);
    } finally {
      await t.close();
    }
  });
});
