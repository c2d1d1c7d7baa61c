import { expect } from 'chai';
import { CatalogError } from '../../framework/catalog/CatalogError';
import { parseCatalog } from '../../framework/catalog/CatalogLoader';
import { CatalogRows } from '../../framework/explorer/CatalogRows';
import { BulkWriter } from '../../framework/storage/BulkWriter';
import { SchemaMigrator } from '../../framework/storage/SchemaMigrator';
import { tableIds } from '../support/tableIds';
import { BACKEND, scratchDatabase } from '../support/TestDatabase';
import { manifestPlugin, startTestInstance, TestInstance } from '../support/TestInstance';

// Sparse columns (op fee, volume, gas… in tables.yaml): a zero is stored as NULL and every read gives
// it back as 0. The oracle below works on MOVES as written, zeros and all.
const CATALOG = `
version: 1
plugins:
  fixture:
    tables:
      move:
        height_column: height
        columns:
          - { name: row_id, type: uint64 }
          - { name: height, type: uint64 }
          - { name: time, type: datetime }
          - { name: fee, type: money, sparse: true }
          - { name: gas, type: uint64, sparse: true }
          - { name: n, type: int64 }
        indexes:
          - [height]
    series:
      move:
        table: move
        columns:
          - { name: fee, agg: sum }
          - { name: gas, agg: mean }
          - { name: n, agg: sum }
          - { name: count, agg: count }
`;
const HOUR = 3_600_000;
const T0 = Date.UTC(2024, 0, 1);
// Two rows an hour; the first hour's fees are all zero, the second's gas too.
const AMOUNTS: Array<[bigint, bigint]> = [
  [0n, 5n],
  [0n, 0n],
  [1_500_000n, 0n],
  [0n, 0n],
  [0n, 7n],
  [-2n, 9n],
];
const MOVES = AMOUNTS.map(([fee, gas], i) => ({
  row_id: i + 1,
  height: i + 1,
  time: new Date(T0 + Math.floor(i / 2) * HOUR + i * 60_000),
  fee,
  gas,
  n: BigInt(i),
}));
const where = (keep: (m: (typeof MOVES)[number]) => boolean): number[] => MOVES.filter(keep).map((m) => m.row_id);
const tez = (mutez: bigint): number => Number(mutez) / 1e6;

describe(`sparse columns: zeros stored as NULL, read as 0 (${BACKEND})`, function () {
  let t: TestInstance;
  before(async function () {
    t = await startTestInstance({ catalogYaml: CATALOG, plugins: [manifestPlugin('fixture')] });
    await t.insert('move', MOVES);
  });
  after(async () => t?.close());

  const ids = (query: string): Promise<number[]> => tableIds(t, 'move', query);

  it('a zero takes no room in the row: it is stored as NULL, other values as they are', async function () {
    const { rows } = await t.app.db.writer.raw(
      'select row_id::text as row_id, fee::text as fee, gas::text as gas from fixture.move order by row_id',
    );
    const stored = (v: bigint): string | null => (v === 0n ? null : String(v));
    expect(rows).to.deep.equal(
      MOVES.map((m) => ({ row_id: String(m.row_id), fee: stored(m.fee), gas: stored(m.gas) })),
    );
  });

  it('lists and explorer rows give the zeros back', async function () {
    const res = await t.get('/tables/move?columns=row_id,fee,gas');
    expect(res.status).to.equal(200);
    expect(await res.json()).to.deep.equal(MOVES.map((m) => [m.row_id, tez(m.fee), Number(m.gas)]));
    const rows = new CatalogRows(t.app.db, t.app.catalog.require('move'), ['row_id', 'fee', 'gas']);
    expect(await rows.read(rows.query().orderBy('row_id'))).to.deep.equal(
      MOVES.map((m) => ({ row_id: m.row_id, fee: tez(m.fee), gas: Number(m.gas) })),
    );
  });

  it('filters compare the zeros as zeros', async function () {
    expect(await ids('fee=0')).to.deep.equal(where((m) => m.fee === 0n));
    expect(await ids('fee.ne=0')).to.deep.equal(where((m) => m.fee !== 0n));
    expect(await ids('fee.lt=0.000001')).to.deep.equal(where((m) => m.fee < 1n));
    expect(await ids('fee.gte=0')).to.deep.equal(where((m) => m.fee >= 0n));
    expect(await ids('gas.in=0,9')).to.deep.equal(where((m) => m.gas === 0n || m.gas === 9n));
    expect(await ids('gas.nin=0')).to.deep.equal(where((m) => m.gas !== 0n));
    expect(await ids('gas.rg=0,5')).to.deep.equal(where((m) => m.gas <= 5n));
  });

  it('series sum and average the zeros: an hour of zeros sums to 0, and zeros count in a mean', async function () {
    const res = await t.get(
      `/series/move?collapse=1h&start_date=${new Date(T0).toISOString()}&end_date=${new Date(T0 + 3 * HOUR - 1).toISOString()}&columns=time,fee,gas,n,count`,
    );
    const text = await res.text();
    expect(res.status, text).to.equal(200);
    const hours = [0, 1, 2].map((h) =>
      MOVES.filter((m) => m.time.getTime() >= T0 + h * HOUR && m.time.getTime() < T0 + (h + 1) * HOUR),
    );
    const mean = (ms: typeof MOVES): number => ms.reduce((s, m) => s + Number(m.gas), 0) / ms.length;
    expect((JSON.parse(text) as unknown[][]).map((r) => r.slice(1))).to.deep.equal(
      hours.map((ms) => [
        tez(ms.reduce((s, m) => s + m.fee, 0n)),
        mean(ms),
        ms.reduce((s, m) => s + Number(m.n), 0),
        ms.length,
      ]),
    );
  });

  it('the catalog allows it only on a non-null integer or tez column of an append table, not indexed, aliased, packed or a series partition', function () {
    const bad = (from: string, to: string, reason: RegExp): void => {
      expect(CATALOG.includes(from), from).to.equal(true);
      expect(() => parseCatalog(CATALOG.replace(from, to))).to.throw(CatalogError, reason);
    };
    bad(
      '{ name: fee, type: money, sparse: true }',
      '{ name: fee, type: money, sparse: true, nullable: true }',
      /nullable/,
    );
    bad('{ name: n, type: int64 }', '{ name: n, type: float64, sparse: true }', /not an integer or tez column/);
    bad('        height_column: height\n', '        height_column: height\n        kind: mutable\n', /mutable table/);
    bad('{ name: height, type: uint64 }', '{ name: height, type: uint64, sparse: true }', /the height/);
    bad('          - [height]\n', '          - [gas]\n', /cannot be indexed/);
    bad('{ name: n, type: int64 }', '{ name: n, type: uint64, alias_of: gas }', /sparse/);
    bad(
      '{ name: n, type: int64 }',
      '{ name: n, type: uint64, packs: { high: height, low: gas, bits: 16 } }',
      /two other stored, non-null integer columns/,
    );
    bad(
      '        table: move\n',
      '        table: move\n        partition: [gas]\n',
      /no stored, non-sparse column 'gas'/,
    );
  });
});

describe(`sparse columns on a database that stored the zeros (${BACKEND})`, function () {
  const database = scratchDatabase();

  it('the migration lets the column hold NULL; stored zeros and new NULL ones read alike', async function () {
    const db = database();
    const writer = new BulkWriter(db.kind);
    const before = parseCatalog(CATALOG.replace(/, sparse: true/g, ''));
    await new SchemaMigrator(db.writer).migrate(before);
    await db.writer.transaction((trx) => writer.append(trx, before.require('move'), MOVES.slice(0, 3)));
    const after = parseCatalog(CATALOG);
    expect((await new SchemaMigrator(db.writer).migrate(after)).altered).to.deep.equal(['move']);
    const move = after.require('move');
    await db.writer.transaction((trx) => writer.append(trx, move, MOVES.slice(3)));
    const nulls = await db.writer.raw('select row_id from fixture.move where fee is null order by row_id');
    expect(nulls.rows.map((r: { row_id: string }) => Number(r.row_id))).to.deep.equal(
      MOVES.slice(3)
        .filter((m) => m.fee === 0n)
        .map((m) => m.row_id),
    );
    const rows = new CatalogRows(db, move, ['row_id', 'fee', 'gas']);
    expect(await rows.read(rows.query().orderBy('row_id'))).to.deep.equal(
      MOVES.map((m) => ({ row_id: m.row_id, fee: tez(m.fee), gas: Number(m.gas) })),
    );
  });
});
