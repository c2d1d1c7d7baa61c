import { expect } from 'chai';
import { BUILTIN_PLUGIN_DIR } from '../../framework/app/TzidxApp';
import { RpcBlockSource } from '../../framework/chain';
import { IndexerStatus } from '../../framework/indexer/IndexerStatus';
import { PluginClass } from '../../framework/plugins/Plugin';
import { discoverPlugins } from '../../framework/plugins/PluginDiscovery';
import { startSandboxServer } from '../../framework/sandbox';
import { seededRandom } from '../../framework/util/seededRandom';
import { indexSandbox } from '../support/IndexHarness';
import { BACKEND } from '../support/TestDatabase';
import { startTestInstance, TestInstance } from '../support/TestInstance';
import { ProbePlugin } from './plugins/probe/plugin';

const plugins = [...discoverPlugins([BUILTIN_PLUGIN_DIR]), ProbePlugin as unknown as PluginClass];

/** Every catalog table of the instance, rows without row_id (reorgs legitimately renumber rows). */
async function snapshot(t: TestInstance): Promise<Record<string, unknown[]>> {
  const out: Record<string, unknown[]> = {};
  for (const table of t.app.catalog.tables.values()) {
    const cols = table.columns.filter((c) => c.name !== 'row_id' && !c.name.endsWith('_id')).map((c) => c.name);
    const orphanFilter = table.orphanColumn ? `&${table.orphanColumn}=0` : '';
    const res = await t.get(`/tables/${table.code}?columns=${cols.join(',')}&limit=50000${orphanFilter}`);
    expect(res.status, table.code).to.equal(200);
    out[table.code] = ((await res.json()) as unknown[][]).map((r) => JSON.stringify(r)).sort();
  }
  return out;
}

describe(`live indexing over HTTP with reorgs (${BACKEND})`, function () {
  this.timeout(300_000);

  it('follows the sandbox node over HTTP through reorgs; tables equal a run over the final chain', async function () {
    const server = await startSandboxServer({ port: 0, seed: 'live-reorgs', profile: 'tiny', historyBlocks: 30, blockIntervalMs: 0 });
    const live = await startTestInstance({ plugins });
    const fresh = await startTestInstance({ plugins });
    try {
      const source = new RpcBlockSource(server.url);
      const running = live.app.startIndexer(source, { reorgDepth: 16, batchBlocks: 5, retryDelayMs: 20 });
      const status = live.app.container.resolve(IndexerStatus);
      const rnd = seededRandom(7);
      // After each step the indexer must reach the node's head (by hash), so every reorg hits indexed blocks.
      const caughtUp = async (): Promise<void> => {
        const deadline = Date.now() + 60_000;
        for (;;) {
          const res = await live.get('/tables/blocks_seen?columns=hash&orphan=0&order=desc&limit=1');
          const top = ((await res.json()) as string[][])[0]?.[0];
          if (top === server.chain.head.hash && status.indexed === server.chain.headLevel) return;
          if (Date.now() > deadline) throw new Error(`indexer stuck at ${status.indexed} (${top}), head ${server.chain.headLevel} (${server.chain.head.hash})`);
          await new Promise((r) => setTimeout(r, 20));
        }
      };
      let reorgs = 0;
      await caughtUp();
      for (let step = 0; step < 30; step++) {
        if (rnd() < 0.3) {
          server.chain.reorg(1 + Math.floor(rnd() * 3));
          reorgs++;
        } else {
          server.chain.bake(1 + Math.floor(rnd() * 2));
        }
        await caughtUp();
      }
      await live.app.stopIndexer();
      await running;
      await source.close();
      expect(reorgs).to.be.greaterThan(3);
      expect((await status.rollbacks.get()).values[0].value).to.equal(reorgs);

      await indexSandbox(fresh, server.chain);
      const [a, b] = [await snapshot(live), await snapshot(fresh)];
      for (const code of Object.keys(b)) {
        const onlyLive = a[code].filter((r) => !b[code].includes(r));
        const onlyFresh = b[code].filter((r) => !a[code].includes(r));
        expect({ onlyLive, onlyFresh }, `table ${code}`).to.deep.equal({ onlyLive: [], onlyFresh: [] });
      }
    } finally {
      await live.close();
      await fresh.close();
      await server.close();
    }
  });
});
