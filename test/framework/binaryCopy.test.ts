import { expect } from 'chai';
import { parseCatalog } from '../../framework/catalog/CatalogLoader';
import { storedColumns, type TableDef } from '../../framework/catalog/CatalogModel';
import { BaseColumnType } from '../../framework/catalog/types/ColumnType';
import { COLUMN_TYPE_PATTERN, columnType } from '../../framework/catalog/types/ColumnTypes';
import { BinaryCopyWriter } from '../../framework/storage/BinaryCopy';
import { BulkWriter, type Row } from '../../framework/storage/BulkWriter';
import { Database } from '../../framework/storage/Database';
import { SchemaMigrator } from '../../framework/storage/SchemaMigrator';
import { EVERY_COLUMN_TYPE } from '../support/everyColumnType';
import { BACKEND, scratchDatabase } from '../support/TestDatabase';

// Rows appended by binary COPY must read back exactly as the same values bound as parameters (the
// driver's text, parsed by the server): the oracle is the server's own text input, for every column
// type and the awkward values writers hand over (numbers, strings and bigints for integers, decimal
// text with exponents, times as numbers, Dates and text, hex or Buffer bytes, sparse zeros).
const COLUMNS = `${EVERY_COLUMN_TYPE}
          - { name: height, type: uint64 }
          - { name: fee, type: money, sparse: true }
          - { name: gas, type: uint64, sparse: true }
          - { name: hash, type: hash(block), nullable: true }
          - { name: price, type: decimal(4), nullable: true }`;
const CATALOG = `
version: 1
plugins:
  fixture:
    tables:
      copied:
        height_column: height
        columns:${COLUMNS}
      bound:
        height_column: height
        columns:${COLUMNS}
`;
const TEXTS = ['plain', 'tab\there, line\nbreak, back\\slash, quote"', 'ünïcødé ✓ 🌮', '', 'x'.repeat(300_000)];
const DECIMALS = [
  '0',
  '-0',
  '0.000000',
  '12.345678',
  '-0.0001',
  '0.00001',
  '1e-7',
  '-1.5E+3',
  '123456789012345678901234567890.5',
  '10000',
  '99990000.0001',
  1e21,
  0.1,
  -7,
  'NaN',
  Infinity,
  '-Infinity',
];
const TIMES: unknown[] = [
  Date.UTC(2024, 1, 29, 23, 59, 59),
  new Date(Date.UTC(1999, 11, 31, 23, 59, 59)),
  '2019-01-01T00:00:00Z',
  '2024-06-01 12:00:00.250+02',
  new Date(Date.UTC(1970, 0, 1)),
  null,
];
const INTEGERS: unknown[] = [
  0,
  -1,
  1,
  2 ** 53 - 1,
  -(2 ** 53),
  2n ** 62n,
  -(2n ** 63n),
  2n ** 63n - 1n,
  '-42',
  '9007199254740993',
  4_294_967_296,
  -4_294_967_297,
];

const ROWS: Row[] = Array.from({ length: 2_000 }, (_, i) => ({
  row_id: BigInt(i + 1),
  height: i % 2 === 0 ? i : BigInt(i),
  n: INTEGERS[i % INTEGERS.length],
  fee: [0n, 0, '0', 1_500_000n, -2n, 7][i % 6],
  gas: [0, 5n, '0', 2 ** 40][i % 4],
  amount: [0n, -5, '12', 2n ** 63n - 1n][i % 4],
  big: [2n ** 200n + BigInt(i), -(10n ** 77n), 0n, 123, '-9'][i % 5],
  fx: i % 11 === 10 ? null : DECIMALS[i % DECIMALS.length],
  price: i % 3 === 2 ? null : DECIMALS[(i * 7) % DECIMALS.length],
  f: [0.1, -1e300, NaN, Infinity, -Infinity, 1.5, null, 3][i % 8],
  flag: [true, false, 't', 'false', 1, 0][i % 6],
  name: i % 13 === 12 ? null : TEXTS[i % 97 === 0 ? 4 : i % 4],
  kind: i % 3 === 0 ? 'b' : 'a',
  addr: i % 4 === 1 ? null : 'tz1burnburnburnburnburnburnburjAYjjX',
  hash: i % 5 === 0 ? null : 'BLockGenesisGenesisGenesisGenesisGenesisf79b5d1CoW2',
  doc: i % 9 === 8 ? null : { text: TEXTS[(i + 1) % 4], n: [i, 'x', null], huge: 2n ** 70n },
  data: [null, 'deadbeef', Buffer.from([0, 9, 10, 92]), '', Buffer.alloc(70_000, 7)][i % 23 === 0 ? 4 : i % 4],
  at: TIMES[i % TIMES.length],
}));

describe(`BulkWriter: rows go in by binary COPY as the server reads the same values' text (${BACKEND})`, function () {
  const database = scratchDatabase();
  const catalog = parseCatalog(CATALOG);
  const [copied, bound] = ['copied', 'bound'].map((code) => catalog.require(code));
  let db: Database;
  before(async function () {
    db = database();
    await new SchemaMigrator(db.writer).migrate(catalog);
  });

  async function contents(table: TableDef): Promise<string[]> {
    const { rows } = await db.reader.raw(
      `select row_to_json(t)::text as j from "fixture"."${table.storage}" t order by row_id`,
    );
    return rows.map((r: { j: string }) => r.j);
  }

  it('appends every column type, chunk boundaries and values larger than a chunk included, as parameters bound one by one store them', async function () {
    await db.writer.transaction((trx) => new BulkWriter(db.kind).append(trx, copied, ROWS));
    const columns = storedColumns(bound);
    for (const row of ROWS) {
      const values: Row = {};
      for (const c of columns) {
        const v = c.type.toDb(row[c.name]);
        // The text form of a sparse zero, as the COPY stores it (ColumnDecl.sparse).
        values[c.name] = c.sparse && v === '0' ? null : v;
      }
      await db.writer.withSchema('fixture').table('bound').insert(values);
    }
    const written = await contents(copied);
    expect(written).to.have.length(ROWS.length);
    const oracle = await contents(bound);
    for (let i = 0; i < written.length; i++)
      if (written[i] !== oracle[i])
        expect(written[i].slice(0, 3000), `row ${i + 1}`).to.equal(oracle[i].slice(0, 3000));
    // The oracle's reading of a few values, so the comparison cannot pass on two empty or equal-but-wrong tables.
    const first = JSON.parse(written[0]);
    expect(first).to.include({
      row_id: 1,
      n: 0,
      fee: null,
      gas: null,
      fx: 0,
      flag: true,
      kind: 1, // enum(a,b): b's position
      name: 'x'.repeat(300_000),
    });
    expect(first.data).to.equal('\\x' + '07'.repeat(70_000));
    expect(JSON.parse(written[5])).to.include({ n: 2 ** 62, fx: 0.00001 });
    expect(JSON.parse(written[6])).to.include({ n: -(2 ** 63), fx: 1e-7, amount: 12 });
    const { rows } = await db.reader.raw(
      `select extract(epoch from "at")::bigint::text as s from "fixture"."copied" where row_id in (1, 2) order by row_id`,
    );
    expect(rows.map((r: { s: string }) => Number(r.s))).to.deep.equal([
      Date.UTC(2024, 1, 29, 23, 59, 59) / 1000,
      946_684_799,
    ]);
  });

  it('refuses values that are not what the column stores, failing the COPY', async function () {
    const bad: Array<[string, unknown]> = [
      ['n', 1.5],
      ['fx', '12,5'],
      ['at', 'not a time'],
      ['flag', 'maybe'],
    ];
    for (const [column, value] of bad) {
      const row = { ...ROWS[1], row_id: 10_000n, [column]: value };
      let failure: unknown;
      await db.writer
        .transaction((trx) => new BulkWriter(db.kind).append(trx, copied, [row]))
        .catch((e: unknown) => (failure = e));
      expect(failure, `${column} = ${String(value)}`).to.be.an('error');
    }
    expect(await contents(copied)).to.have.length(ROWS.length);
  });

  it('every column type not stored as text writes its own binary form (the default writes text)', function () {
    // The catalog's type names: simple ones, then those that take an argument.
    const [simple, parameterized] = COLUMN_TYPE_PATTERN.split('$|^').map((p) => /\(([^)]*)\)/.exec(p)![1].split('|'));
    const declarations = [
      ...simple,
      ...parameterized.map((n) => `${n}(${n === 'hash' ? 'block' : n === 'enum' ? 'a' : '2'})`),
    ];
    expect(declarations).to.include.members(['int64', 'money', 'datetime', 'fixed(2)', 'decimal(2)', 'hash(block)']);
    for (const d of declarations) {
      const type = columnType(d);
      if (type.sqlType !== 'text') expect(type.writeBinary, d).to.not.equal(BaseColumnType.prototype.writeBinary);
    }
  });

  it('writes numeric as base-10,000 digits with weight, sign and scale', function () {
    const out = new BinaryCopyWriter();
    out.take();
    out.numeric('-1234567.89');
    const b = out.take();
    // Length 8 + 3 digits × 2; ndigits 3, weight 1, sign negative, scale 2; digits 123, 4567, 8900.
    expect([b.readInt32BE(0), b.readInt16BE(4), b.readInt16BE(6), b.readUInt16BE(8), b.readInt16BE(10)]).to.deep.equal([
      14, 3, 1, 0x4000, 2,
    ]);
    expect([b.readInt16BE(12), b.readInt16BE(14), b.readInt16BE(16)]).to.deep.equal([123, 4567, 8900]);
  });
});
