import { expect } from 'chai';
import type { HandlerRegistry, PluginClass } from '../../framework';
import { BUILTIN_PLUGIN_DIR } from '../../framework/app/TzidxApp';
import { discoverPlugins } from '../../framework/plugins/PluginDiscovery';
import { SandboxChain } from '../../framework/sandbox';
import { readTable, type CsvRow } from '../core-chain/support/tableReader';
import { indexSandbox } from '../support/IndexHarness';
import { EMPTY_CATALOG, startTestInstance } from '../support/TestInstance';

/**
 * `blocksStart` hooks get a batch's blocks before its first block is handled, so plugins read ahead in
 * a few queries what their handlers would ask block by block (core-chain's accounts and contracts,
 * bigmaps' rows and live keys, metadata's contract rows).
 */
describe('indexer: batch-start hooks (read-ahead)', function () {
  this.timeout(300_000);

  it('runs each batch-start hook once per batch, with exactly its blocks, before its first block', async () => {
    const events: string[] = [];
    class StartLog {
      static readonly manifest = { name: 'start-log' };
      setup() {
        return {
          handlers: (r: HandlerRegistry) => {
            r.blocksStart((blocks) => void events.push(`start ${blocks.map((b) => b.level).join(',')}`));
            r.onBlock((block) => void events.push(`block ${block.level}`));
            r.afterBatch((_trx, from, to) => void events.push(`done ${from}-${to}`));
          },
        };
      }
    }
    const chain = new SandboxChain({ seed: 'blocks-start', profile: 'tiny', traffic: [] });
    chain.bake(14);
    const t = await startTestInstance({ catalogYaml: EMPTY_CATALOG, plugins: [StartLog as unknown as PluginClass], config: { batchBlocks: 4 } });
    try {
      await indexSandbox(t, chain);
    } finally {
      await t.close();
    }
    // Rebuild the expected sequence from the batches the afterBatch hook saw.
    const batches = events.filter((e) => e.startsWith('done ')).map((e) => e.slice(5).split('-').map(Number));
    expect(batches.length).to.be.greaterThan(2);
    const expected: string[] = [];
    for (const [from, to] of batches) {
      const levels = Array.from({ length: to - from + 1 }, (_, i) => from + i);
      expected.push(`start ${levels.join(',')}`, ...levels.map((l) => `block ${l}`), `done ${from}-${to}`);
    }
    expect(events).to.deep.equal(expected);
  });

  describe('built-in plugins', () => {
    const plugins = discoverPlugins([BUILTIN_PLUGIN_DIR]);
    const chain = new SandboxChain({ seed: 'read-ahead', profile: 'tiny' });
    const TABLES: Record<string, string[]> = {
      account: ['address', 'address_type', 'first_seen', 'last_seen', 'spendable_balance', 'n_tx_success', 'is_contract'],
      contract: ['address', 'account_id', 'first_seen', 'last_seen', 'storage_size', 'storage_hash', 'call_stats'],
      bigmaps: ['bigmap_id', 'n_updates', 'n_keys', 'update_height', 'delete_height'],
      bigmap_values: ['bigmap_id', 'hash', 'key', 'value', 'height'],
      contract_metadata: ['contract', 'metadata_map', 'token_map', 'entries', 'update_height'],
    };
    const runs: Record<number, { tables: Record<string, CsvRow[]>; queries: string[]; batches: number }> = {};

    before(async () => {
      chain.bakeTo(90);
      for (const batchBlocks of [1, 45]) {
        let batches = 0;
        class BatchCount {
          static readonly manifest = { name: 'batch-count' };
          setup() {
            return { handlers: (r: HandlerRegistry) => r.afterBatch(() => void batches++) };
          }
        }
        const t = await startTestInstance({ plugins: [...plugins, BatchCount as unknown as PluginClass], config: { batchBlocks } });
        const queries: string[] = [];
        try {
          t.app.db.writer.on('query', (q: { sql: string }) => queries.push(q.sql));
          await indexSandbox(t, chain);
          const tables: Record<string, CsvRow[]> = {};
          for (const [table, columns] of Object.entries(TABLES)) tables[table] = await readTable(t, table, columns);
          runs[batchBlocks] = { tables, queries, batches };
        } finally {
          await t.close();
        }
      }
    });

    it('writes the same accounts, contracts, bigmaps and metadata one block a batch and 45 blocks a batch', () => {
      for (const table of Object.keys(TABLES)) {
        expect(runs[45].tables[table].length, table).to.be.greaterThan(0);
        expect(runs[45].tables[table], table).to.deep.equal(runs[1].tables[table]);
      }
    });

    it('reads the rows of a batch’s accounts, contracts, bigmaps and metadata in about one query per table and batch', () => {
      const { queries, batches } = runs[45];
      expect(batches).to.be.lessThan(6);
      const count = (pattern: RegExp): number => queries.filter((q) => pattern.test(q)).length;
      // A few more than the batches: a voting period's start reads its listed bakers too.
      expect(count(/^select \* from "core_chain"\."account" where "address" in/)).to.be.within(1, batches + 3);
      expect(count(/^select \* from "core_chain"\."contract" where "address" in/)).to.be.within(1, batches);
      expect(count(/^select \* from "bigmaps"\."bigmaps" where "bigmap_id" in/)).to.be.within(1, batches);
      expect(count(/^select "bigmap_id", "hash", "key", "value" from "bigmaps"\."bigmap_values" where/)).to.be.within(1, batches);
      expect(count(/^select \* from "metadata"\."contract_metadata" where "contract" in/)).to.be.within(1, batches);
    });
  });
});
