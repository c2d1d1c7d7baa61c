import { expect } from 'chai';
import { parseCatalog } from '../../framework/catalog/CatalogLoader';
import type { TableDef } from '../../framework/catalog/CatalogModel';
import { BulkWriter, type Row } from '../../framework/storage/BulkWriter';
import { Database } from '../../framework/storage/Database';
import { SchemaMigrator } from '../../framework/storage/SchemaMigrator';
import { EVERY_COLUMN_TYPE } from '../support/everyColumnType';
import { BACKEND, scratchDatabase } from '../support/TestDatabase';

// Two tables of the same columns, one of every column type: one written through the staging table
// (merge), the other through the shared statement (mergeAll), must end up holding the same values.
const COLUMNS = EVERY_COLUMN_TYPE;
const CATALOG = `
version: 1
plugins:
  fixture:
    tables:
      staged:
        kind: mutable
        columns:${COLUMNS}
      shared:
        kind: mutable
        columns:${COLUMNS}
      other:
        kind: mutable
        columns:
          - { name: row_id, type: uint64 }
          - { name: label, type: string }
`;
const TEXTS = ['plain', 'tab\there, line\nbreak, back\\slash', 'ünïcødé ✓ 🌮', ''];
const FIRST: Row[] = [1n, 2n, 3n].map((row_id, i) => ({
  row_id,
  n: i === 0 ? -(2n ** 63n) : i === 1 ? 2n ** 63n - 1n : 0n,
  amount: i === 2 ? 0n : 1_234_567n * BigInt(i + 1),
  big: 2n ** 200n + BigInt(i),
  fx: i === 1 ? null : '12.345678',
  f: i === 0 ? 0.1 : i === 1 ? -1e300 : null,
  flag: i % 2 === 0,
  name: TEXTS[i],
  kind: i === 1 ? 'b' : 'a',
  addr: i === 2 ? null : 'tz1burnburnburnburnburnburnburjAYjjX',
  doc: i === 1 ? null : { text: TEXTS[i + 1], n: [i, 'x'], huge: 2n ** 70n },
  data: i === 0 ? 'deadbeef' : i === 1 ? Buffer.from([0, 9, 10, 92]) : null,
  at: i === 2 ? null : i === 0 ? Date.UTC(2024, 1, 29, 23, 59, 59) : new Date(Date.UTC(2019, 0, 1)),
}));
// Updates are whole rows, as the entity stores hand them over; a new row leaves the nullable columns it does not carry
// null.
const SECOND: Row[] = [
  { ...FIRST[0], name: TEXTS[3], amount: 0n, doc: { changed: true }, fx: null },
  { ...FIRST[2], flag: true, data: '00ff', at: Date.UTC(2030, 5, 1) },
  { row_id: 4n, n: 7n, amount: 9n, big: 1n, flag: false, kind: 'b' },
];

describe(`BulkWriter.mergeAll: small merges share one statement (${BACKEND})`, function () {
  const database = scratchDatabase();
  const catalog = parseCatalog(CATALOG);
  const [staged, shared, other] = ['staged', 'shared', 'other'].map((code) => catalog.require(code));
  let db: Database;
  let writer: BulkWriter;
  let statements: string[];
  before(async function () {
    db = database();
    writer = new BulkWriter(db.kind);
    await new SchemaMigrator(db.writer).migrate(catalog);
    db.writer.on('query', (q: { sql: string }) => statements.push(q.sql));
  });

  async function inTransaction(
    write: (trx: Parameters<Parameters<Database['writer']['transaction']>[0]>[0]) => Promise<void>,
  ): Promise<string[]> {
    statements = [];
    await db.writer.transaction(write);
    return statements.filter((s) => !/^(begin|commit)\b/i.test(s.trim()));
  }

  async function contents(table: TableDef): Promise<string[]> {
    const { rows } = await db.reader.raw(
      `select row_to_json(t)::text as j from "fixture"."${table.storage}" t order by row_id`,
    );
    return rows.map((r: { j: string }) => r.j);
  }

  it('writes the values the staging table writes, for every column type, new rows and updates alike, in one statement', async function () {
    for (const [k, rows] of [FIRST, SECOND].entries()) {
      await inTransaction((trx) => writer.merge(trx, staged, rows));
      const sent = await inTransaction((trx) =>
        writer.mergeAll(trx, [
          { table: shared, rows },
          { table: other, rows: [{ row_id: BigInt(k + 1), label: 'x' }] },
        ]),
      );
      expect(sent).to.have.length(1);
      expect(sent[0]).to.match(/^with m0 as \(insert into "fixture"\."shared"/);
    }
    const written = await contents(shared);
    expect(written).to.deep.equal(await contents(staged));
    expect(written).to.have.length(4);
    // The oracle's own reading of the updated row: enum(a,b) stores 'a' as its position in the list, 0.
    const one = JSON.parse(written[0]);
    expect(one).to.include({ amount: 0, name: '', kind: 0, flag: true, big: 2 ** 200, fx: null });
    expect(JSON.parse(written[1]).kind).to.equal(1);
    expect(one.doc).to.deep.equal({ changed: true });
    expect(await contents(other)).to.deep.equal(['{"row_id":1,"label":"x"}', '{"row_id":2,"label":"x"}']);
  });

  it('a table with many rows goes through its staging table, the small ones still together', async function () {
    const many = Array.from({ length: 1100 }, (_, i) => ({ row_id: BigInt(100 + i), label: `r${i}` }));
    const sent = await inTransaction((trx) =>
      writer.mergeAll(trx, [
        { table: other, rows: many },
        { table: shared, rows: [{ ...FIRST[1], name: 'renamed' }] },
      ]),
    );
    expect(sent.filter((s) => s.startsWith('create temporary table'))).to.have.length(1);
    expect(sent.filter((s) => s.startsWith('with m0 as (insert into "fixture"."shared"'))).to.have.length(1);
    expect((await contents(other)).length).to.equal(1102);
    expect(JSON.parse((await contents(shared))[1]).name).to.equal('renamed');
  });

  it('a table given twice is merged once per entry, in order (one statement could not update a row twice)', async function () {
    await inTransaction((trx) =>
      writer.mergeAll(trx, [
        { table: other, rows: [{ row_id: 1000n, label: 'first' }] },
        { table: other, rows: [{ row_id: 1000n, label: 'second' }] },
      ]),
    );
    const { rows } = await db.reader.raw(`select label from "fixture"."other" where row_id = 1000`);
    expect(rows).to.deep.equal([{ label: 'second' }]);
  });
});
