import { expect } from 'chai';
import { BUILTIN_PLUGIN_DIR } from '../../framework/app/TzidxApp';
import { discoverPlugins } from '../../framework/plugins/PluginDiscovery';
import { SandboxChain } from '../../framework/sandbox';
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
    const t = await startTestInstance({ plugins: discoverPlugins([BUILTIN_PLUGIN_DIR]), enabled: ['core-chain', 'bigmaps'] });
    try {
      const status = await indexSandbox(t, chain, { batchBlocks: 1 });
      expect(status.indexed).to.equal(chain.headLevel);
      const keys = (await (await t.get('/tables/bigmap_values?columns=bigmap_id&limit=50000')).json()) as unknown[];
      expect(keys.length).to.be.greaterThan(300);
    } finally {
      await t.close();
    }
  });
});
