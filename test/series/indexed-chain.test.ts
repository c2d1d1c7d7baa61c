import { expect } from 'chai';
import { BUILTIN_PLUGIN_DIR } from '../../framework/app/TzidxApp';
import { discoverPlugins } from '../../framework/plugins/PluginDiscovery';
import { SandboxChain } from '../../framework/sandbox';
import { indexSandbox } from '../support/IndexHarness';
import { BACKEND } from '../support/TestDatabase';
import { startTestInstance, TestInstance } from '../support/TestInstance';

const BUCKET = 5 * 60_000;

interface BlockRow {
  time: number;
  n_ops_applied: number;
  fee: string;
  baker: string;
  n_endorsed_slots: number;
}

/** The block series recomputed from the block table's main-chain rows, 5-minute buckets. */
function expected(rows: BlockRow[], keep: (r: BlockRow) => boolean = () => true): unknown[][] {
  const buckets = new Map<number, { count: number; ops: number; fee: bigint; slots: number }>();
  for (const r of rows.filter(keep)) {
    const key = Math.floor(r.time / BUCKET) * BUCKET;
    const b = buckets.get(key) ?? { count: 0, ops: 0, fee: 0n, slots: 0 };
    b.count += 1;
    b.ops += r.n_ops_applied;
    b.fee += BigInt(Math.round(Number(r.fee) * 1e6));
    b.slots += r.n_endorsed_slots;
    buckets.set(key, b);
  }
  return [...buckets.entries()]
    .sort((a, b) => a[0] - b[0])
    .map(([time, b]) => [time, b.count, b.ops, Number(b.fee) / 1e6, b.slots]);
}

async function blockRows(t: TestInstance): Promise<BlockRow[]> {
  const rows = (await (
    await t.get('/tables/block?columns=time,n_ops_applied,fee,baker,n_endorsed_slots&is_orphan=0&limit=50000')
  ).json()) as unknown[][];
  return rows.map(([time, n, fee, baker, slots]) => ({
    time: time as number,
    n_ops_applied: n as number,
    fee: String(fee),
    baker: baker as string,
    n_endorsed_slots: slots as number,
  }));
}

async function series(
  t: TestInstance,
  rows: BlockRow[],
  extra = '',
): Promise<{ body: unknown[][]; source: string | null }> {
  const start = new Date(rows[0].time).toISOString();
  const end = new Date(rows[rows.length - 1].time).toISOString();
  const res = await t.get(
    `/series/block?collapse=5m&columns=count,n_ops_applied,fee,n_endorsed_slots&start_date=${start}&end_date=${end}&limit=50000${extra}`,
  );
  expect(res.status).to.equal(200);
  return { body: (await res.json()) as unknown[][], source: res.headers.get('x-series-source') };
}

describe(`series over an indexed chain (${BACKEND})`, function () {
  this.timeout(300_000);

  it('block series from rollups and from raw rows equal a re-aggregation of the block table, before and after a reorg', async function () {
    const chain = new SandboxChain({ seed: 'series-e2e', profile: 'tiny' });
    chain.bake(240);
    const t = await startTestInstance({ plugins: discoverPlugins([BUILTIN_PLUGIN_DIR]) });
    try {
      for (const step of ['indexed', 'after reorg']) {
        if (step === 'after reorg') {
          chain.reorg(4);
          chain.bake(3);
        }
        await indexSandbox(t, chain);
        const rows = await blockRows(t);
        expect(rows.length, step).to.equal(chain.headLevel + 1);
        const all = await series(t, rows);
        expect(all.source, step).to.match(/^rollup/);
        expect(all.body, step).to.deep.equal(expected(rows));
        expect(all.body.length).to.be.greaterThan(3);
        const baker = rows[rows.length - 1].baker;
        const filtered = await series(t, rows, `&baker=${baker}`);
        expect(filtered.source, step).to.equal('raw');
        expect(filtered.body, step).to.deep.equal(expected(rows, (r) => r.baker === baker));
      }
    } finally {
      await t.close();
    }
  });

  it("op series from rollups equal the raw rows after reorgs, whose new branch takes the deleted rows' ids again", async function () {
    const chain = new SandboxChain({ seed: 'series-e2e-ops', profile: 'tiny' });
    chain.bake(240);
    const t = await startTestInstance({ plugins: discoverPlugins([BUILTIN_PLUGIN_DIR]) });
    const opSeries = async (extra: string): Promise<{ body: unknown[][]; source: string | null }> => {
      const res = await t.get(
        `/series/op?collapse=1h&columns=count,volume,fee&start_date=2000-01-01&end_date=2100-01-01&limit=50000${extra}`,
      );
      expect(res.status).to.equal(200);
      return { body: (await res.json()) as unknown[][], source: res.headers.get('x-series-source') };
    };
    try {
      for (const step of ['indexed', 'after a reorg', 'after a second reorg']) {
        if (step !== 'indexed') {
          chain.reorg(5);
          chain.bake(2);
        }
        await indexSandbox(t, chain);
        const rollup = await opSeries('');
        // Any filter reads the raw rows: `height.gte=0` keeps them all.
        const raw = await opSeries('&height.gte=0');
        expect([rollup.source, raw.source], step).to.deep.equal(['rollup:1h', 'raw']);
        expect(rollup.body, step).to.deep.equal(raw.body);
        const count = rollup.body.reduce((n, r) => n + (r[1] as number), 0);
        // Rows the op table lists: contract events (type `event`) only when a filter names them.
        const type = t.app.catalog.require('op').column('type')!.type;
        const hidden = `${type.literal('event')}, ${type.literal('unknown')}`;
        const listed = `select count(*)::int as n from core_chain.op where type not in (${hidden})`;
        const [{ n }] = (await t.app.db.reader.raw(listed)).rows;
        expect(count, step).to.equal(n);
      }
    } finally {
      await t.close();
    }
  });
});
