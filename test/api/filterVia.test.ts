import { b58Encode, PrefixV2 } from '@taquito/utils';
import { expect } from 'chai';
import { CatalogError } from '../../framework/catalog/CatalogError';
import { parseCatalog } from '../../framework/catalog/CatalogLoader';
import { CatalogRows } from '../../framework/explorer/CatalogRows';
import { applyFilters } from '../../framework/query/TableQueryEngine';
import { BulkWriter } from '../../framework/storage/BulkWriter';
import { SchemaMigrator } from '../../framework/storage/SchemaMigrator';
import { heldColumns, tableIds } from '../support/tableIds';
import { BACKEND, scratchDatabase } from '../support/TestDatabase';
import { manifestPlugin, startTestInstance, TestInstance } from '../support/TestInstance';

// A column filtered through a row id (op `sender` through `sender_id` in tables.yaml): equality
// filters on the address run through the account's row id, and must answer exactly what the same
// filter on the stored address would. The oracle below filters MOVES by hand.
const CATALOG = `
version: 1
plugins:
  fixture:
    tables:
      acct:
        kind: mutable
        columns:
          - { name: row_id, type: uint64 }
          - { name: address, type: address }
        indexes:
          - { columns: [address], unique: true }
      blk:
        kind: mutable
        height_column: height
        orphan_column: is_orphan
        columns:
          - { name: row_id, type: uint64 }
          - { name: height, type: uint64 }
          - { name: hash, type: hash(block) }
          - { name: is_orphan, type: bool }
      move:
        columns:
          - { name: row_id, type: uint64 }
          - { name: height, type: uint64 }
          - { name: block, type: hash(block), filter_via: { column: height, table: blk, key: hash, value: height, by_value: true } }
          - { name: sender_id, type: uint64, nullable: true }
          - { name: sender, type: address, nullable: true, filter_via: { column: sender_id, table: acct, key: address } }
          - { name: receiver_id, type: uint64 }
          - { name: receiver, type: address, filter_via: { column: receiver_id, table: acct, key: address } }
          - { name: party, type: address, any_of: [sender, receiver] }
        indexes:
          - [height]
          - [sender_id, row_id]
          - [receiver_id, row_id]
`;
const A = 'tz1VSUr8wwNhLAzempoch5d6hLRiTh8Cjcjb';
const B = 'tz1aSkwEot3L2kmUvcoxzjMomb9mvBNuzFK6';
const C = 'KT1PWx2mnDueood7fEmfbBDKx1D9BAnnXitn';
const UNKNOWN = 'tz1NortRftucvAkD1J58L32EhSVrQEWJCEnB';
const ACCOUNTS = [A, B, C].map((address, i) => ({ row_id: i + 1, address }));
const idOf = (a: string | null): number | null => (a === null ? null : ACCOUNTS.find((x) => x.address === a)!.row_id);
// Row 4 has no sender (an implicit event); C never sends.
const PAIRS: Array<[string | null, string]> = [
  [A, B],
  [B, A],
  [A, C],
  [null, A],
  [B, C],
  [A, A],
];
// Main-chain blocks 1 to 3, and an orphan at height 2 (a reorg took it off the chain).
const blockHash = (n: number): string => b58Encode(new Uint8Array(32).fill(n), PrefixV2.BlockHash);
const [B1, B2, B3, ORPHAN, NO_BLOCK] = [1, 2, 3, 4, 5].map(blockHash);
const BLOCKS = [
  { row_id: 1, height: 1, hash: B1, is_orphan: false },
  { row_id: 2, height: 2, hash: ORPHAN, is_orphan: true },
  { row_id: 3, height: 2, hash: B2, is_orphan: false },
  { row_id: 4, height: 3, hash: B3, is_orphan: false },
];
const MOVES = PAIRS.map(([sender, receiver], i) => {
  const height = 1 + Math.floor(i / 2);
  return {
    row_id: i + 1,
    height,
    block: [B1, B2, B3][height - 1],
    sender,
    sender_id: idOf(sender),
    receiver,
    receiver_id: idOf(receiver),
  };
});
const where = (keep: (m: (typeof MOVES)[number]) => boolean): number[] => MOVES.filter(keep).map((m) => m.row_id);

/** The same columns kept only as ids (`stored: false`): read through the other table. */
const READ_THROUGH = CATALOG.replace(/(filter_via: \{[^}]*) \}/g, '$1, stored: false }');

for (const stored of [true, false])
  describe(`filter_via: equality filters through a row id column${stored ? '' : ', the value not stored'} (${BACKEND})`, function () {
    let t: TestInstance;
    before(async function () {
      t = await startTestInstance({
        catalogYaml: stored ? CATALOG : READ_THROUGH,
        plugins: [manifestPlugin('fixture')],
      });
      await t.insert('acct', ACCOUNTS);
      await t.insert('blk', BLOCKS);
      await t.insert('move', MOVES);
    });
    after(async () => t?.close());

    const ids = (query: string): Promise<number[]> => tableIds(t, 'move', query);

    it('eq and in answer the rows holding the addresses; an unknown address matches none', async function () {
      expect(await ids(`sender=${A}`)).to.deep.equal(where((m) => m.sender === A));
      expect(await ids(`sender=${C}`)).to.deep.equal([]);
      expect(await ids(`sender=${UNKNOWN}`)).to.deep.equal([]);
      expect(await ids(`sender.in=${A},${B}`)).to.deep.equal(where((m) => m.sender === A || m.sender === B));
      expect(await ids(`sender.in=${B},${UNKNOWN}`)).to.deep.equal(where((m) => m.sender === B));
      expect(await ids(`receiver=${C}`)).to.deep.equal(where((m) => m.receiver === C));
    });

    it('ne and nin keep the rows without a value, also for an unknown address, as on the column itself', async function () {
      expect(await ids(`sender.ne=${A}`)).to.deep.equal(where((m) => m.sender !== A));
      expect(await ids(`sender.ne=${UNKNOWN}`)).to.deep.equal(where(() => true));
      expect(await ids(`sender.nin=${A},${B}`)).to.deep.equal(where((m) => m.sender !== A && m.sender !== B));
      expect(await ids(`sender.nin=${UNKNOWN}`)).to.deep.equal(where(() => true));
      expect(await ids(`receiver.ne=${A}`)).to.deep.equal(where((m) => m.receiver !== A));
    });

    it("through another column than the row id (block by height): a main-chain block's rows; an orphan's hash matches none", async function () {
      expect(await ids(`block=${B2}`)).to.deep.equal(where((m) => m.block === B2));
      expect(await ids(`block=${ORPHAN}`)).to.deep.equal([]);
      expect(await ids(`block=${NO_BLOCK}`)).to.deep.equal([]);
      expect(await ids(`block.in=${B1},${B3},${ORPHAN}`)).to.deep.equal(where((m) => m.block === B1 || m.block === B3));
      expect(await ids(`block.ne=${B2}`)).to.deep.equal(where((m) => m.block !== B2));
      expect(await ids(`block.ne=${ORPHAN}`)).to.deep.equal(where(() => true));
      expect(await ids(`block.nin=${B1},${ORPHAN}`)).to.deep.equal(where((m) => m.block !== B1));
    });

    it('by_value: a block filter may give heights, alone or among hashes; an address filter may not', async function () {
      expect(await ids('block=2')).to.deep.equal(where((m) => m.height === 2));
      expect(await ids('block=99')).to.deep.equal([]);
      expect(await ids(`block.in=1,${B3},${ORPHAN}`)).to.deep.equal(where((m) => m.height === 1 || m.height === 3));
      expect(await ids('block.ne=2')).to.deep.equal(where((m) => m.height !== 2));
      expect(await ids(`block.nin=1,${B2}`)).to.deep.equal(where((m) => m.height === 3));
      for (const query of ['sender=12', 'block.gt=2']) {
        const res = await t.get(`/tables/move?${query}`);
        expect(res.status, query).to.equal(400);
      }
    });

    it('an any_of column over such columns matches through each (and its negation through none)', async function () {
      expect(await ids(`party=${C}`)).to.deep.equal(where((m) => m.sender === C || m.receiver === C));
      expect(await ids(`party=${B}`)).to.deep.equal(where((m) => m.sender === B || m.receiver === B));
      expect(await ids(`party.nin=${A}`)).to.deep.equal(where((m) => m.sender !== A && m.receiver !== A));
    });

    it('the filter reaches the rows through the id index, in row order', async function () {
      const db = t.app.db.writer;
      // 3,000 more senders with one move each (placeholder addresses: the plan is what counts here).
      await db.raw(
        `insert into fixture.acct (row_id, address) select 10 + g, 'tz1x' || g from generate_series(1, 3000) g`,
      );
      const copies = stored ? ['block', 'sender', 'receiver'] : [];
      const values = stored ? [`'${B3}'`, `'tz1x' || g`, `'${A}'`] : [];
      await db.raw(
        `insert into fixture.move (${['row_id', 'height', 'sender_id', 'receiver_id', ...copies]}) select ${['100 + g', '3', '10 + g', '1', ...values]} from generate_series(1, 3000) g`,
      );
      await db.raw('analyze fixture.move');
      await db.raw('analyze fixture.acct');
      await db.raw('set enable_seqscan = off');
      try {
        const move = t.app.catalog.require('move');
        const q = db.withSchema(move.schema).from(move.storage).select('row_id').orderBy('row_id', 'desc').limit(5);
        applyFilters(q, [{ column: move.column('sender')!, op: 'eq', values: [B] }]);
        const plan = (await db.raw(`explain ${q.toString()}`)).rows
          .map((r: { 'QUERY PLAN': string }) => r['QUERY PLAN'])
          .join('\n');
        expect(plan, plan).to.match(/move_sender_id_row_id_idx/);
        expect(plan).not.to.match(/Sort/);
      } finally {
        await db.raw('reset enable_seqscan');
      }
    });

    it('the catalog rejects filter_via on a virtual column, through a non-id column, an undeclared or later table, or a key that is not unique', function () {
      const via = '{ column: sender_id, table: acct, key: address }';
      const bad = (replacement: string, reason: RegExp): void => {
        expect(() => parseCatalog(CATALOG.replace(via, replacement))).to.throw(CatalogError, reason);
      };
      bad('{ column: sender, table: acct, key: address }', /not an integer column/);
      bad('{ column: sender_id, table: acct, key: address, value: address }', /not an integer column/);
      bad('{ column: sender_id, table: nope, key: address }', /not declared before/);
      bad('{ column: sender_id, table: move, key: address }', /not declared before/);
      bad('{ column: sender_id, table: acct, key: row_id }', /no stored address column/);
      expect(() =>
        parseCatalog(CATALOG.replace('          - { columns: [address], unique: true }\n', '          - [address]\n')),
      ).to.throw(CatalogError, /no unique index/);
      expect(() =>
        parseCatalog(CATALOG.replace(via, '{ column: sender_id, table: acct, key: address, by_value: true }')),
      ).to.throw(CatalogError, /by_value needs/);
      expect(() =>
        parseCatalog(CATALOG.replace('any_of: [sender, receiver]', `any_of: [sender, receiver], filter_via: ${via}`)),
      ).to.throw(CatalogError, /alias or filter-only/);
    });

    if (stored) return;

    it('the rows hold only the id; the answers read the value through it, in lists and explorer rows alike', async function () {
      const move = t.app.catalog.require('move');
      expect(await heldColumns(t.app.db, move)).to.deep.equal(['row_id', 'height', 'sender_id', 'receiver_id']);
      const res = await t.get('/tables/move?columns=row_id,block,sender,receiver&limit=6');
      expect(res.status).to.equal(200);
      expect(await res.json()).to.deep.equal(MOVES.map((m) => [m.row_id, m.block, m.sender, m.receiver]));
      const rows = new CatalogRows(t.app.db, move, ['row_id', 'block', 'sender']);
      const first = await rows.first(rows.query().where('row_id', 4));
      expect(first).to.deep.equal({ row_id: 4, block: B2, sender: null });
    });

    it('other filter modes compare the value read through the id', async function () {
      // The fixture's rows (the plan test above added more).
      const ids = (query: string): Promise<number[]> => tableIds(t, 'move', `${query}&row_id.lte=${MOVES.length}`);
      expect(await ids(`sender.gt=${A}`)).to.deep.equal(where((m) => m.sender !== null && m.sender > A));
      expect(await ids(`receiver.lt=${B}`)).to.deep.equal(where((m) => m.receiver < B));
      expect(await ids(`block.lte=${B2}`)).to.deep.equal(where((m) => m.block <= B2));
      expect(await ids(`receiver.rg=${B},${C}`)).to.deep.equal(where((m) => m.receiver >= B && m.receiver <= C));
      expect(await ids(`party.gte=${C}`)).to.deep.equal(
        where((m) => (m.sender !== null && m.sender >= C) || m.receiver >= C),
      );
    });

    it('the catalog keeps such columns out of indexes, aliases and mutable tables, and their key stored', function () {
      const bad = (from: string, to: string, reason: RegExp): void => {
        expect(from.length > 0 && READ_THROUGH.includes(from), from).to.equal(true);
        expect(() => parseCatalog(READ_THROUGH.replace(from, to))).to.throw(CatalogError, reason);
      };
      bad('          - [height]\n', '          - [sender]\n', /not stored in the rows: index the columns/);
      bad(
        '          - { name: party, type: address, any_of: [sender, receiver] }',
        '          - { name: party, type: address, alias_of: sender }',
        /alias of 'sender'/,
      );
      bad('      move:\n', '      move:\n        kind: mutable\n', /only in an append table/);
      // A key that is itself read through a third table (here the orphan-keyed `seen`): its own id, not a value.
      const seen = `
      seen:
        height_column: height
        orphan_column: is_orphan
        columns:
          - { name: row_id, type: uint64 }
          - { name: height, type: uint64 }
          - { name: is_orphan, type: bool }
          - { name: acct_id, type: uint64 }
          - { name: owner, type: address, filter_via: { column: acct_id, table: acct, key: address, stored: false } }
      move:
`;
      const nested = READ_THROUGH.replace('      move:\n', seen).replace(
        '{ column: sender_id, table: acct, key: address, stored: false }',
        '{ column: sender_id, table: seen, key: owner, value: acct_id, stored: false }',
      );
      expect(nested).to.include('table: seen, key: owner');
      expect(() => parseCatalog(nested)).to.throw(CatalogError, /itself read through another table/);
    });
  });

describe(`filter_via stored: false on a database that stored the column (${BACKEND})`, function () {
  const database = scratchDatabase();

  it('the migration drops the stored copies; the rows keep their values, read through the ids, and new rows go in without them', async function () {
    const db = database();
    const writer = new BulkWriter(db.kind);
    const before = parseCatalog(CATALOG);
    await new SchemaMigrator(db.writer).migrate(before);
    await db.writer.transaction(async (trx) => {
      await writer.append(trx, before.require('acct'), ACCOUNTS);
      await writer.append(trx, before.require('blk'), BLOCKS);
      await writer.append(trx, before.require('move'), MOVES.slice(0, 4));
    });
    const after = parseCatalog(READ_THROUGH);
    const report = await new SchemaMigrator(db.writer).migrate(after);
    expect(report.altered).to.deep.equal(['move']);
    const move = after.require('move');
    expect(await heldColumns(db, move)).to.deep.equal(['row_id', 'height', 'sender_id', 'receiver_id']);
    // The rows carry the values as the indexer makes them; only the ids are written.
    await db.writer.transaction((trx) => writer.append(trx, move, MOVES.slice(4)));
    const rows = new CatalogRows(db, move, ['row_id', 'block', 'sender', 'receiver']);
    expect(await rows.read(rows.query().orderBy('row_id'))).to.deep.equal(
      MOVES.map((m) => ({ row_id: m.row_id, block: m.block, sender: m.sender, receiver: m.receiver })),
    );
    expect((await new SchemaMigrator(db.writer).migrate(after)).unchanged).to.include('move');
  });
});
