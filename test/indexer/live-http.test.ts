import { expect } from 'chai';
import { BUILTIN_PLUGIN_DIR } from '../../framework/app/TzidxApp';
import { RpcBlockSource } from '../../framework/chain';
import { PluginClass } from '../../framework/plugins/Plugin';
import { discoverPlugins } from '../../framework/plugins/PluginDiscovery';
import { startSandboxServer } from '../../framework/sandbox';
import { indexSandbox } from '../support/IndexHarness';
import { indexWhileMoving } from '../support/LiveChain';
import { expectSameTables } from '../support/TableSnapshot';
import { BACKEND } from '../support/TestDatabase';
import { startTestInstance } from '../support/TestInstance';
import { ProbePlugin } from './plugins/probe/plugin';

const plugins = [...discoverPlugins([BUILTIN_PLUGIN_DIR]), ProbePlugin as unknown as PluginClass];

describe(`live indexing over HTTP with reorgs (${BACKEND})`, function () {
  this.timeout(300_000);

  it('follows the sandbox node over HTTP through reorgs; tables equal a run over the final chain', async function () {
    const server = await startSandboxServer({
      port: 0,
      seed: 'live-reorgs',
      profile: 'tiny',
      historyBlocks: 30,
      blockIntervalMs: 0,
    });
    const live = await startTestInstance({ plugins });
    const fresh = await startTestInstance({ plugins });
    try {
      // A tez price older than every block, so the DeFi recorders freeze USD values (which must not
      // depend on where batches start either).
      const candle = {
        exchange: 'kraken',
        pair: 'XTZ_USD',
        time: new Date(0),
        open: '1.25',
        high: '1.25',
        low: '1.25',
        close: '1.25',
      };
      for (const t of [live, fresh]) await t.insert('market_candle', [candle]);
      const reorgs = await indexWhileMoving(live, server.chain, new RpcBlockSource(server.url), 7, 30);
      expect(reorgs).to.be.greaterThan(3);

      await indexSandbox(fresh, server.chain);
      await expectSameTables(live, fresh);
    } finally {
      await live.close();
      await fresh.close();
      await server.close();
    }
  });
});
