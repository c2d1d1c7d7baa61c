import { expect } from 'chai';
import { parseCatalog } from '../../framework/catalog/CatalogLoader';
import { SandboxChain } from '../../framework/sandbox';
import { HeightPartitions, partitionRanges } from '../../framework/storage/HeightPartitions';
import { SchemaMigrator } from '../../framework/storage/SchemaMigrator';
import { silentLogger } from '../../framework/util/Logger';
import { CoreChainPlugin } from '../../plugins/core-chain/plugin';
import { indexSandbox } from '../support/IndexHarness';
import { catalogWithSpan } from '../support/partitionCatalogs';
import { BACKEND } from '../support/TestDatabase';
import { startTestInstance, TestInstance } from '../support/TestInstance';

// Why: op's tables and flow are stored in partitions of height ranges (tables.yaml `partition`), which the
// indexer makes ahead of the heights it writes, so an operator can pack, move or drop old ranges. No row
// may land outside its range or be lost, a reorg's rollback deletes across ranges, every answer is the
// one an unpartitioned database gives, and a database of the unpartitioned schema migrates at start.
const SPAN = 10;
const TABLES = ['op_main', 'op_attest', 'op_preattest', 'flow'];
const plugins = [CoreChainPlugin];

const start = (span?: number): Promise<TestInstance> =>
  startTestInstance({ catalogYaml: catalogWithSpan(span), plugins, enabled: ['core-chain'] });

/** Each partitioned table's range partitions by start height, and the rows its default partition holds. */
async function layout(t: TestInstance): Promise<Record<string, { ranges: number[]; stray: number }>> {
  const out: Record<string, { ranges: number[]; stray: number }> = {};
  for (const code of TABLES) {
    const table = [...t.app.catalog.tables.values()]
      .flatMap((c) => (c.parts ? [c.parts.main, ...c.parts.narrow.map((p) => p.table)] : [c]))
      .find((c) => c.storage === code)!;
    const ranges = await partitionRanges(t.app.db.writer, table);
    for (const r of ranges) expect(r.to - r.from, r.name).to.equal(SPAN);
    const [{ n }] = (await t.app.db.writer.raw(`select count(*)::int as n from core_chain.${code}_default`)).rows;
    out[code] = { ranges: ranges.map((r) => r.from).sort((a, b) => a - b), stray: n };
  }
  return out;
}

/** The answers compared byte for byte: whole lists, a cursor page, and the sender=, height=, hash= filters. */
async function answers(t: TestInstance): Promise<string[]> {
  const get = async (path: string): Promise<string> => {
    const res = await t.get(path);
    expect(res.status, path).to.equal(200);
    return res.text();
  };
  const ops = JSON.parse(await get('/tables/op?columns=row_id,hash,sender&limit=50000')) as Array<
    [number, string | null, string | null]
  >;
  const attestation = ops.find(([, hash, sender]) => hash && sender)!;
  const paths = [
    '/tables/op?limit=50000',
    '/tables/flow?limit=50000',
    `/tables/op?cursor=${ops[Math.floor(ops.length / 2)][0]}&limit=100`,
    `/tables/op?sender=${attestation[2]}&limit=50000`,
    '/tables/op?height=22&limit=50000',
    `/tables/op?hash=${attestation[1]}`,
    '/tables/op?height.gte=19&height.lte=31&order=desc&limit=500',
    '/tables/flow?height.gt=28&limit=50000',
  ];
  return Promise.all(paths.map(get));
}

describe(`core-chain: op's tables and flow in height-range partitions (${BACKEND})`, function () {
  this.timeout(600_000);
  const open: TestInstance[] = [];
  afterEach(async () => {
    for (const t of open.splice(0)) await t.close();
  });

  it('makes ranges ahead over several spans, rolls back across a boundary, packs final ones, answers as before', async () => {
    const chain = new SandboxChain({ seed: 'partitions', profile: 'tiny' });
    chain.bakeTo(45);
    const parted = await start(SPAN);
    const plain = await start();
    open.push(parted, plain);
    for (const t of [parted, plain]) await indexSandbox(t, chain, { batchBlocks: 4, reorgDepth: 16 });
    const made = [0, 10, 20, 30, 40, 50];
    for (const [code, l] of Object.entries(await layout(parted)))
      expect(l, code).to.deep.equal({ ranges: made, stray: 0 });
    expect(await answers(parted)).to.deep.equal(await answers(plain));

    // A reorg from 37: the rollback deletes rows of the ranges from 30 and from 40.
    chain.reorg(9);
    chain.bake(2);
    for (const t of [parted, plain]) await indexSandbox(t, chain, { batchBlocks: 4, reorgDepth: 16 });
    const [{ n }] = (await parted.app.db.writer.raw('select count(*)::int as n from core_chain.op_attest_h40')).rows;
    expect(n).to.be.greaterThan(0);
    for (const [code, l] of Object.entries(await layout(parted)))
      expect(l, code).to.deep.equal({ ranges: made, stray: 0 });
    expect(await answers(parted)).to.deep.equal(await answers(plain));
    // Ranges wholly below the head by more than the reorg depth (47 - 16) were packed, one a batch; no other.
    const { rows: packed } = await parted.app.db.writer.raw('select relation from tzidx.packed_ranges');
    const names = packed.map((r: { relation: string }) => r.relation);
    expect(names).to.include('core_chain.op_main_h0');
    for (const name of names) expect(name).to.match(/^core_chain\.[a-z_]+_h(0|10|20)$/);
  });

  it('migrates an unpartitioned database at start: rows in their ranges, the same answers, indexing goes on', async () => {
    const chain = new SandboxChain({ seed: 'partitions', profile: 'tiny' });
    chain.bakeTo(30);
    const t = await start();
    open.push(t);
    await indexSandbox(t, chain, { toLevel: 24 });
    const db = t.app.db.writer;
    const all = ['select * from core_chain.op order by row_id', 'select * from core_chain.flow order by row_id'];
    const before = await Promise.all(all.map(async (sql) => (await db.raw(sql)).rows));
    const answered = await answers(t);

    const catalog = parseCatalog(catalogWithSpan(SPAN)).forPlugins(new Set(['core-chain']));
    await new SchemaMigrator(db).migrate(catalog);
    expect(await Promise.all(all.map(async (sql) => (await db.raw(sql)).rows))).to.deep.equal(before);
    expect(await answers(t)).to.deep.equal(answered);
    const { rows: kinds } = await db.raw(
      `select relname, relkind from pg_class where relnamespace = 'core_chain'::regnamespace and relname = any(?)`,
      [TABLES],
    );
    expect(
      Object.fromEntries(kinds.map((r: { relname: string; relkind: string }) => [r.relname, r.relkind])),
    ).to.deep.equal(Object.fromEntries(TABLES.map((name) => [name, 'p'])));
    // Each table gets the ranges its rows need (preattestations are rarer than the rest).
    for (const [code, l] of Object.entries(await layout(t))) {
      const { rows } = await db.raw(
        `select distinct height / ${SPAN} * ${SPAN} as f from core_chain.${code} order by f`,
      );
      expect(rows.length, code).to.be.greaterThan(0);
      expect(l, code).to.deep.equal({ ranges: rows.map((r: { f: string }) => Number(r.f)), stray: 0 });
    }

    // Migrated once: a second start changes nothing. Then the indexer makes the next ranges and goes on.
    expect((await new SchemaMigrator(db).migrate(catalog)).altered).to.deep.equal([]);
    await new HeightPartitions(catalog, silentLogger).ahead(db, 25, 30);
    await indexSandbox(t, chain);
    const [after] = (
      await db.raw(
        'select count(*)::int as n, count(distinct row_id)::int as ids, max(height)::int as height from core_chain.op',
      )
    ).rows;
    expect(after).to.deep.equal({ n: after.ids, ids: after.ids, height: 30 });
    for (const [code, l] of Object.entries(await layout(t))) {
      expect(l.ranges, code).to.include.members([20, 30, 40]);
      expect(l.stray, code).to.equal(0);
    }
  });
});
