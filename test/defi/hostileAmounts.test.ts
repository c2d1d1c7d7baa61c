import { expect } from 'chai';
import { BUILTIN_PLUGIN_DIR } from '../../framework/app/TzidxApp';
import { RpcBlockSource } from '../../framework/chain';
import { IndexerStatus } from '../../framework/indexer/IndexerStatus';
import { discoverPlugins } from '../../framework/plugins/PluginDiscovery';
import { SandboxChain } from '../../framework/sandbox';
import { readTable } from '../core-chain/support/tableReader';
import { CraftedNode, type RawJson } from '../support/CraftedBlocks';
import { BACKEND } from '../support/TestDatabase';
import { startTestInstance, type TestInstance } from '../support/TestInstance';

const DEFI = ['core-chain', 'defi-dex', 'defi-farm', 'defi-lending'];

/**
 * Issue #51, DeFi: a pool whose storage holds an integer past the bigint columns (a token's nat is
 * unbounded: 10^80 here, in a QuipuSwap v1 pool's largest storage integer, its reserve, after a user's call)
 * would fail the batch's insert. Through the real indexer path: that record is skipped and counted, every later block
 * is indexed, and the pool's later calls are recorded again.
 */
describe(`DeFi: an amount past the bigint columns does not stop indexing (${BACKEND})`, function () {
  this.timeout(300_000);
  const HEAD = 160;
  const chain = new SandboxChain({ seed: 'defi-hostile', profile: 'tiny' });
  chain.bakeTo(HEAD);
  const huge = `1${'0'.repeat(80)}`;
  const pool = chain.knownContracts().find((c) => c.name === 'QuipuSwap tez/kUSD')!.address;
  /** Every int leaf of a Micheline value. */
  const ints = (v: RawJson, out: RawJson[] = []): RawJson[] => {
    if (Array.isArray(v)) v.forEach((x) => ints(x, out));
    else if (v && typeof v === 'object') {
      if (typeof v.int === 'string') out.push(v);
      (v.args as RawJson[] | undefined)?.forEach((x) => ints(x, out));
    }
    return out;
  };
  /** The pool's user calls, by level and group: the first is made hostile, the others must be recorded. */
  const calls = (() => {
    const out: { level: number; hash: string }[] = [];
    for (let level = 3; level <= HEAD; level++) {
      const block = JSON.parse(chain.blockJson(chain.at(level)!)) as RawJson;
      for (const group of (block.operations as RawJson[][]).flat()) {
        const called = (group.contents as RawJson[]).some(
          (c) =>
            c.kind === 'transaction' &&
            c.destination === pool &&
            c.parameters &&
            ints(c.metadata?.operation_result?.storage).length > 0,
        );
        if (called) out.push({ level, hash: group.hash as string });
      }
    }
    return out;
  })();
  const hostile = calls[0];
  let t: TestInstance;

  before(async () => {
    t = await startTestInstance({
      plugins: discoverPlugins([BUILTIN_PLUGIN_DIR]).filter((p) => DEFI.includes(p.manifest.name)),
    });
    const node = new CraftedNode(chain, {
      [hostile.level]: (block) => {
        const group = (block.operations as RawJson[][]).flat().find((g) => g.hash === hostile.hash)!;
        const op = (group.contents as RawJson[]).find((c) => c.destination === pool && c.parameters)!;
        const largest = ints(op.metadata.operation_result.storage).reduce((a, b) =>
          BigInt(b.int) > BigInt(a.int) ? b : a,
        );
        largest.int = huge;
      },
    });
    const source = new RpcBlockSource(node);
    try {
      await t.app.startIndexer(source, { retryDelayMs: 10, toLevel: HEAD });
    } finally {
      await source.close();
    }
  });
  after(() => t?.close());

  it("indexes every block, skips and counts the hostile call, records the pool's calls before and after it", async () => {
    expect(calls.length, 'calls of the pool').to.be.greaterThan(2);
    const status = t.app.container.resolve(IndexerStatus);
    expect(status.status).to.not.equal('failed');
    expect(status.indexed).to.equal(HEAD);
    const events = await readTable(t, 'dex_event', ['tx_hash'], `contract=${pool}`);
    const recorded = new Set(events.map((e) => e.tx_hash));
    expect(calls.map((c) => recorded.has(c.hash))).to.deep.equal(calls.map((c) => c !== hostile));
    const metric = status.registry.getSingleMetric('tzidx_undecodable_values_total');
    const values = (await metric?.get())?.values ?? [];
    const overflow = values.find((v) => v.labels.plugin === 'defi-dex' && v.labels.kind === 'integer_overflow');
    expect(overflow?.value, 'counted').to.be.at.least(1);
  });
});
