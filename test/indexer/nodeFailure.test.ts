import { expect } from 'chai';
import { BUILTIN_PLUGIN_DIR } from '../../framework/app/TzidxApp';
import { RpcBlockSource } from '../../framework/chain';
import type { RpcTransport } from '../../framework/chain/rpc/RpcTransport';
import { IndexerStatus } from '../../framework/indexer/IndexerStatus';
import { PluginClass } from '../../framework/plugins/Plugin';
import { discoverPlugins } from '../../framework/plugins/PluginDiscovery';
import { SandboxChain, SandboxRpcTransport } from '../../framework/sandbox';
import { indexSandbox } from '../support/IndexHarness';
import { expectSameTables } from '../support/TableSnapshot';
import { BACKEND } from '../support/TestDatabase';
import { startTestInstance } from '../support/TestInstance';
import { ProbePlugin } from './plugins/probe/plugin';

const plugins = [...discoverPlugins([BUILTIN_PLUGIN_DIR]), ProbePlugin as unknown as PluginClass];
const enabled = ['core-chain', 'probe'];

describe(`indexer: a handler's node call that fails after the client's retries (${BACKEND})`, function () {
  this.timeout(120_000);

  it('is a source failure: the batch is retried, indexing goes on, tables equal a clean run', async () => {
    const chain = new SandboxChain({ seed: 'node-failure', profile: 'tiny' });
    chain.bake(12);
    const node = new SandboxRpcTransport(chain);
    // The probe plugin asks for each block's header inside the batch: the one of level 3 fails once, in
    // the run's first batch (from level 2: past genesis, so only the batch's first block carries constants).
    const failing = '/chains/main/blocks/3/header';
    let failures = 0;
    const flaky: RpcTransport = {
      get: async (path) =>
        path === failing && failures++ === 0 ? { status: 503, body: 'node restarting' } : node.get(path),
      monitorHeads: (signal) => node.monitorHeads(signal),
    };
    const t = await startTestInstance({ plugins, enabled });
    const clean = await startTestInstance({ plugins, enabled });
    try {
      await t.app.startIndexer(new RpcBlockSource(flaky, { maxRetries: 0 }), {
        retryDelayMs: 10,
        fromLevel: 2,
        toLevel: chain.headLevel,
      });
      const status = t.app.container.resolve(IndexerStatus);
      expect(status.status, status.lastError).to.equal('synced');
      expect(status.indexed).to.equal(chain.headLevel);
      expect(failures, 'requests of the failing path').to.equal(2);
      await indexSandbox(clean, chain, { fromLevel: 2 });
      await expectSameTables(t, clean);
    } finally {
      await t.close();
      await clean.close();
    }
  });
});
