import { expect } from 'chai';
import type { HandlerRegistry, PluginClass } from '../../framework';
import { BUILTIN_PLUGIN_DIR } from '../../framework/app/TzidxApp';
import { discoverPlugins } from '../../framework/plugins/PluginDiscovery';
import { SandboxChain } from '../../framework/sandbox';
import { readTable, type CsvRow } from '../core-chain/support/tableReader';
import { canonical, indexSandbox } from '../support/IndexHarness';
import { EMPTY_CATALOG, startTestInstance } from '../support/TestInstance';

/**
 * `blocksStart` hooks get a batch's blocks before its first block is handled, so plugins read ahead in
 * a few queries what their handlers would ask block by block (core-chain's accounts and contracts,
 * bigmaps' rows and live keys, metadata's contract rows, the DeFi plugins' pools and positions).
 */
type Query = { sql: string; bindings: unknown[] };
const POSITIONS = ['dex_position', 'farm_position', 'lend_position'];

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
    const t = await startTestInstance({
      catalogYaml: EMPTY_CATALOG,
      plugins: [StartLog as unknown as PluginClass],
      config: { batchBlocks: 4 },
    });
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
      account: [
        'address',
        'address_type',
        'first_seen',
        'last_seen',
        'spendable_balance',
        'n_tx_success',
        'is_contract',
      ],
      contract: ['address', 'account_id', 'first_seen', 'last_seen', 'storage_size', 'storage_hash', 'call_stats'],
      bigmaps: ['bigmap_id', 'n_updates', 'n_keys', 'update_height', 'delete_height'],
      bigmap_values: ['bigmap_id', 'hash', 'key', 'value', 'height'],
      contract_metadata: ['contract', 'metadata_map', 'token_map', 'entries', 'update_height'],
      ...Object.fromEntries(
        POSITIONS.map((p) => [p, ['position', 'pool', 'owner', 'open_height', 'update_height', 'is_closed']]),
      ),
    };
    const runs: Record<
      number,
      { tables: Record<string, CsvRow[]>; queries: Query[]; batches: number; pools: Map<string, number> }
    > = {};

    before(async () => {
      chain.bakeTo(90);
      for (const batchBlocks of [1, 45]) {
        let batches = 0;
        class BatchCount {
          static readonly manifest = { name: 'batch-count' };
          setup() {
            return {
              handlers: (r: HandlerRegistry) => {
                // Last of the plugins, so its hook runs after every read-ahead: what follows, until the
                // batch is done, is the handlers' own queries.
                r.blocksStart(
                  (blocks) => void queries.push({ sql: '-- handlers', bindings: blocks.map((b) => b.level) }),
                );
                r.afterBatch(() => void queries.push({ sql: '-- done', bindings: [] }));
                r.afterBatch(() => void batches++);
              },
            };
          }
        }
        const t = await startTestInstance({
          plugins: [...plugins, BatchCount as unknown as PluginClass],
          config: { batchBlocks },
        });
        const queries: Query[] = [];
        try {
          t.app.db.writer.on('query', (q: Query) => queries.push({ sql: q.sql, bindings: q.bindings ?? [] }));
          await indexSandbox(t, chain);
          const tables: Record<string, CsvRow[]> = {};
          for (const [table, columns] of Object.entries(TABLES)) tables[table] = await readTable(t, table, columns);
          const pools = new Map<string, number>();
          for (const table of ['dex_pool', 'farm_pool', 'lend_pool'])
            for (const r of await readTable(t, table, ['pool', 'first_height']))
              pools.set(String(r.pool), Number(r.first_height));
          runs[batchBlocks] = { tables, queries, batches, pools };
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
      const count = (pattern: RegExp): number => queries.filter((q) => pattern.test(q.sql)).length;
      // A few more than the batches: a voting period's start reads its listed bakers too.
      expect(count(/^select \* from "core_chain"\."account" where "address" in/)).to.be.within(1, batches + 3);
      expect(count(/^select \* from "core_chain"\."contract" where "address" in/)).to.be.within(1, batches);
      expect(count(/^select \* from "bigmaps"\."bigmaps" where "bigmap_id" in/)).to.be.within(1, batches);
      // The read-ahead's probes (a copied or removed bigmap is read whole apart: LiveValues.entries).
      const pairs =
        /^select "bigmap_id", "hash", "key", "value" from "bigmaps"\."bigmap_values" where \("bigmap_id", "hash"\) in/;
      expect(count(pairs)).to.be.within(1, batches);
      expect(count(/^select \* from "metadata"\."contract_metadata" where "contract" in/)).to.be.within(1, batches);
    });

    it('reads ahead the DeFi positions of the accounts that call a pool: none is looked up by a handler', () => {
      const { queries, pools } = runs[45];
      const blocks = new Map(canonical(chain).map((b) => [b.level, b]));
      const batches = queries.filter((q) => q.sql === '-- handlers').map((q) => q.bindings.map(Number));
      expect(batches.length).to.be.greaterThan(1);
      let batch = 0;
      let inHandlers = false;
      let covered = 0;
      const looked: string[] = [];
      for (const q of queries) {
        if (q.sql === '-- handlers' || q.sql === '-- done') {
          inHandlers = q.sql === '-- handlers';
          if (!inHandlers) batch++;
          continue;
        }
        const m = /^select \* from "defi_\w+"\."(\w+_position)" where "position" in/.exec(q.sql);
        if (!m || batch >= batches.length) continue;
        const levels = batches[batch];
        // Who signed or sent an applied call to each contract in the batch's blocks (the oracle, from the chain
        // itself).
        const callers = new Map<string, Set<string>>();
        for (const level of levels) {
          for (const op of blocks.get(level)!.operations) {
            if (op.status !== 'applied' || op.type !== 'transaction' || !op.receiver?.startsWith('KT1')) continue;
            const set = callers.get(op.receiver) ?? new Set<string>();
            for (const a of [op.source, op.sender]) if (a) set.add(a);
            callers.set(op.receiver, set);
          }
        }
        for (const key of q.bindings.map(String)) {
          const [pool, owner, stakeId] = key.split(':');
          const created = pools.get(pool);
          // Positions keyed by pool and owner, in pools the database held when the batch opened.
          if (
            stakeId !== undefined ||
            created === undefined ||
            created >= levels[0] ||
            !callers.get(pool.split('_')[0])?.has(owner)
          )
            continue;
          covered++;
          if (inHandlers) looked.push(`${m[1]} ${key}`);
        }
      }
      expect(covered, 'position reads of callers of older pools').to.be.greaterThan(0);
      expect(looked).to.deep.equal([]);
    });
  });
});
