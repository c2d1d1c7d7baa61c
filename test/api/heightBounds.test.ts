import { expect } from 'chai';
import { column, HandlerRegistry, PluginClass, PluginManifest, table } from '../../framework';
import { IndexerStatus } from '../../framework/indexer/IndexerStatus';
import { TABLE_PROFILE } from '../../framework/query/ListProfile';
import { TableQueryEngine } from '../../framework/query/TableQueryEngine';
import { parseTableRequest } from '../../framework/query/TableRequest';
import { RpcBlockSource } from '../../framework/chain';
import { SandboxChain, SandboxRpcTransport } from '../../framework/sandbox';
import { droppedRows } from '../support/queryPlans';
import { tableIds } from '../support/tableIds';
import { BACKEND } from '../support/TestDatabase';
import { EMPTY_CATALOG, manifestPlugin, startTestInstance, TestInstance } from '../support/TestInstance';

// A height filter on an append table is also said as a row-id bound (TableQueryEngine.boundRowIds):
// the answer, in row-id order, is the same, and Postgres no longer walks the row-id index from the
// table's start to the first row at the height. The table below is as the indexer writes one: row
// ids grow with the height, 30 rows a height.
const CATALOG = `
version: 1
plugins:
  fixture:
    tables:
      blk:
        kind: append
        height_column: height
        orphan_column: is_orphan
        columns:
          - { name: row_id, type: uint64 }
          - { name: height, type: uint64 }
          - { name: cycle, type: uint64 }
          - { name: is_orphan, type: bool }
        indexes:
          - [height]
          - [cycle]
      ev:
        kind: append
        height_column: height
        columns:
          - { name: row_id, type: uint64 }
          - { name: height, type: uint64 }
          - { name: cycle, type: uint64, follows_height: { table: blk, column: cycle } }
          - { name: v, type: int64 }
          - { name: n, type: uint64 }
          - { name: id, type: uint64, packs: { high: height, low: n, bits: 16, stored: false } }
        indexes:
          - [height]
`;
const ROWS = 30_000;
const PER_HEIGHT = 30;
const heightOf = (rowId: number): number => Math.floor(rowId / PER_HEIGHT);
/** 100 blocks a cycle. */
const cycleOf = (rowId: number): number => Math.floor(heightOf(rowId) / 100);
/** The packed id of a row: height << 16 | its position at the height. */
const idOf = (rowId: number): number => heightOf(rowId) * 65536 + (rowId % PER_HEIGHT);
const all = Array.from({ length: ROWS }, (_, i) => i + 1);

describe(`tables: height filters bound the row ids of an append table (${BACKEND})`, function () {
  let t: TestInstance;
  before(async function () {
    t = await startTestInstance({ catalogYaml: CATALOG, plugins: [manifestPlugin('fixture')] });
    await t.app.db.writer.raw(
      `insert into fixture.ev (row_id, height, cycle, v, n) select g, g / ${PER_HEIGHT}, g / ${PER_HEIGHT} / 100, g % 7, g % ${PER_HEIGHT} from generate_series(1, ${ROWS}) g`,
    );
    // The main chain's blocks, and orphans whose cycles would widen the bounds if they counted.
    await t.app.db.writer.raw(
      `insert into fixture.blk (row_id, height, cycle, is_orphan) select h + 1, h, h / 100, false from generate_series(0, ${ROWS / PER_HEIGHT}) h`,
    );
    await t.app.db.writer.raw(
      `insert into fixture.blk (row_id, height, cycle, is_orphan) values (5000, 250, 9, true), (5001, 950, 0, true)`,
    );
    await t.app.db.writer.raw('analyze fixture.ev');
    await t.app.db.writer.raw('analyze fixture.blk');
  });
  after(async () => t?.close());

  it('answers what the height filters alone answer, in both orders, with other filters and cursors', async function () {
    const cases: Array<[string, (id: number) => boolean]> = [
      ['height.gte=900', (id) => heightOf(id) >= 900],
      ['height.gt=900', (id) => heightOf(id) > 900],
      ['height.lt=5', (id) => heightOf(id) < 5],
      ['height.lte=5', (id) => heightOf(id) <= 5],
      ['height.rg=300,302', (id) => heightOf(id) >= 300 && heightOf(id) <= 302],
      ['height.gte=2000', () => false],
      ['height.lt=0', () => false],
      ['height.gte=990&v=3', (id) => heightOf(id) >= 990 && id % 7 === 3],
      ['cycle=7', (id) => cycleOf(id) === 7],
      ['cycle.gte=7', (id) => cycleOf(id) >= 7],
      ['cycle.gt=7', (id) => cycleOf(id) > 7],
      ['cycle.lt=3', (id) => cycleOf(id) < 3],
      ['cycle.lte=3', (id) => cycleOf(id) <= 3],
      ['cycle.rg=2,4', (id) => cycleOf(id) >= 2 && cycleOf(id) <= 4],
      ['cycle=50', () => false],
      ['cycle.in=2,8', (id) => cycleOf(id) === 2 || cycleOf(id) === 8],
      [`id.gt=${700 * 65536 + 12}`, (id) => idOf(id) > 700 * 65536 + 12],
      [`id.lte=${300 * 65536 + 3}`, (id) => idOf(id) <= 300 * 65536 + 3],
      [
        `id.rg=${600 * 65536 + 29},${601 * 65536 + 1}`,
        (id) => idOf(id) >= 600 * 65536 + 29 && idOf(id) <= 601 * 65536 + 1,
      ],
    ];
    for (const [query, keep] of cases) {
      const wanted = all.filter(keep);
      expect(await tableIds(t, 'ev', `${query}&limit=50`), query).to.deep.equal(wanted.slice(0, 50));
      expect(await tableIds(t, 'ev', `${query}&order=desc&limit=50`), `${query} desc`).to.deep.equal(
        wanted.reverse().slice(0, 50),
      );
    }
    const inRange = all.filter((id) => heightOf(id) >= 100 && heightOf(id) <= 200);
    expect(await tableIds(t, 'ev', 'height.rg=100,200&cursor=3100&limit=50')).to.deep.equal(
      inRange.filter((id) => id > 3100).slice(0, 50),
    );
    expect(await tableIds(t, 'ev', 'height.rg=100,200&cursor=4000&order=desc&limit=50')).to.deep.equal(
      inRange
        .filter((id) => id < 4000)
        .reverse()
        .slice(0, 50),
    );
  });

  it('reads the rows from the first one at the height, not the table before it', async function () {
    const ev = t.app.catalog.require('ev');
    const engine = t.app.container.resolve(TableQueryEngine);
    // Bounds that leave a large part of the table (a third, a fifth) but not its first (last) rows:
    // where Postgres, guessing the matches spread over the row ids, walks them from the start (end).
    const id = (height: number): string => String(height * 65536 + 7);
    const cases: Array<Record<string, string>> = [
      { 'height.gte': '700' },
      { 'height.rg': '600,800' },
      { 'height.lte': '300' },
      { 'id.gte': id(700) },
      { 'id.lte': id(300) },
    ];
    // ev has no index on cycle: without the bounds, a cycle's rows are found by reading the table.
    cases.push({ cycle: '7' }, { 'cycle.gte': '7' }, { 'cycle.lte': '2' }, { 'cycle.rg': '4,5' });
    for (const args of cases) {
      const order = Object.keys(args)[0].endsWith('.lte') ? 'desc' : 'asc';
      const req = parseTableRequest(ev, { columns: 'row_id', limit: '50', order, ...args }, TABLE_PROFILE);
      const sql = engine.query(ev, req, 'compact', undefined, 0, 50).toString();
      // Every row a scan read and dropped by its filter, over the whole plan (the lookups of the heights too).
      const { dropped, plan } = await droppedRows(t.app.db, sql);
      expect(dropped, `${JSON.stringify(args)}: ${JSON.stringify(plan)}`).to.be.below(5 * PER_HEIGHT);
    }
  });
});

/** Appends a row whose height is not its block's at level 3. */
@table('misplaced_rows', { kind: 'append', height_column: 'height' })
class MisplacedRows {
  @column({ type: 'uint64' }) row_id!: string;
  @column({ type: 'int64' }) height!: number;
}
class MisplacingPlugin {
  static readonly manifest: PluginManifest = { name: 'misplacing', tableClasses: [MisplacedRows] };
  setup() {
    return {
      handlers: (r: HandlerRegistry) =>
        r.onBlock((block, ctx) => void ctx.append('misplaced_rows', { height: block.level === 3 ? 1 : block.level })),
    };
  }
}

describe(`indexer: an appended row's height is its block's (${BACKEND})`, function () {
  it('fails the batch of a row with another height, keeping the batches before', async function () {
    const t = await startTestInstance({
      catalogYaml: EMPTY_CATALOG,
      plugins: [MisplacingPlugin as unknown as PluginClass],
    });
    try {
      const chain = new SandboxChain({ seed: 'misplaced', profile: 'tiny' });
      chain.bake(6);
      await t.app.startIndexer(new RpcBlockSource(new SandboxRpcTransport(chain)), {
        toLevel: chain.headLevel,
        reorgDepth: 0,
        batchBlocks: 2,
        retryDelayMs: 10,
      });
      const status = t.app.container.resolve(IndexerStatus);
      expect(status.status).to.equal('failed');
      expect(status.lastError).to.match(/'misplaced_rows' row of block 3 has height 1/);
      const heights = (
        (await (await t.get('/tables/misplaced_rows?columns=height&limit=100')).json()) as number[][]
      ).map((r) => r[0]);
      expect(heights).to.not.be.empty;
      expect(Math.max(...heights))
        .to.equal(status.indexed)
        .and.to.be.below(3);
    } finally {
      await t.close();
    }
  });
});
