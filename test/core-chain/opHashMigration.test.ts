import { expect } from 'chai';
import { physicalTables, storedColumns } from '../../framework/catalog/CatalogModel';
import { BinaryHashType } from '../../framework/catalog/types/BinaryHashType';
import { tableReader } from '../../framework/indexer/TableReader';
import { SandboxChain } from '../../framework/sandbox';
import { viewSql } from '../../framework/storage/PartedTables';
import { SchemaMigrator } from '../../framework/storage/SchemaMigrator';
import { BigmapsPlugin } from '../../plugins/bigmaps/plugin';
import { CoreChainPlugin } from '../../plugins/core-chain/plugin';
import { indexSandbox } from '../support/IndexHarness';
import { BACKEND } from '../support/TestDatabase';
import { startTestInstance, TestInstance } from '../support/TestInstance';

// Why: a database of the schema before operation hashes were stored as raw bytes (base58 text, collate "C",
// hash indexes on op's tables, a B-tree on bigmap_updates.op) must migrate in place and answer every request
// as it did: each such column is decoded in SQL (BinaryHashType.convertFrom), its indexes are built again on
// the 8-byte key, and indexing goes on.
describe(`core-chain: a database with operation hashes as base58 text (${BACKEND})`, function () {
  this.timeout(600_000);
  let t: TestInstance;
  after(async () => t?.close());

  it('converts them in place, answers as before, and indexing goes on', async () => {
    const chain = new SandboxChain({ seed: 'explorer', profile: 'tiny' });
    chain.bakeTo(30);
    t = await startTestInstance({ plugins: [CoreChainPlugin, BigmapsPlugin], enabled: ['core-chain', 'bigmaps'] });
    await indexSandbox(t, chain, { toLevel: 20 });
    const db = t.app.db.writer;
    const ops: Array<{ hash: string }> = JSON.parse(
      await (await t.get('/tables/op?columns=hash&hash.ne=null&limit=100000')).text(),
    ).map(([hash]: [string]) => ({ hash }));
    const [first, second, last] = [ops[0].hash, ops[1].hash, ops[ops.length - 1].hash];
    const requests = [
      '/tables/op?limit=100000',
      '/tables/op.csv?limit=100000',
      `/tables/op?hash=${last}`,
      `/tables/op?hash.in=${first},${last}`,
      `/tables/op?hash.gt=${second}&limit=100000`,
      `/tables/flow?op=${last}`,
      '/tables/bigmap_updates?limit=100000',
      `/explorer/op/${first}`,
      `/explorer/op/${last}`,
    ];
    const answers = async (): Promise<string[]> => Promise.all(requests.map(async (r) => (await t.get(r)).text()));
    const before = await answers();
    expect(before[2]).to.include(last);
    expect(JSON.parse(before[3])).to.have.length.of.at.least(2);

    // The previous schema: every operation hash base58 text (collate "C"), op's parts with hash indexes.
    await db.raw('drop view core_chain.op');
    for (const ix of ['core_chain.op_hash_idx', 'core_chain.op_attest_hash_idx', 'core_chain.op_preattest_hash_idx'])
      await db.raw(`drop index ${ix}`);
    await db.raw('drop index bigmaps.bigmap_updates_op_idx');
    const converted: string[] = [];
    for (const table of t.app.catalog.tables.values())
      for (const part of physicalTables(table))
        for (const c of storedColumns(part)) {
          if (!(c.type instanceof BinaryHashType)) continue;
          const name = `${part.schema}.${part.storage}`;
          const { rows } = await db.raw(`select row_id::text as id, encode("${c.name}", 'hex') as hex from ${name}`);
          await db.raw(`alter table ${name} alter column "${c.name}" type text collate "C" using null`);
          for (const r of rows as Array<{ id: string; hex: string | null }>)
            if (r.hex !== null)
              await db.raw(`update ${name} set "${c.name}" = ? where row_id = ?`, [
                String(c.type.fromDb(Buffer.from(r.hex, 'hex'))),
                r.id,
              ]);
          await db.raw(`update tzidx.schema_version set definition_hash = 'before' where table_code = ?`, [part.code]);
          converted.push(`${part.storage}.${c.name}`);
        }
    expect(converted).to.include.members(['op_main.hash', 'op_attest.hash', 'op_preattest.hash', 'bigmap_updates.op']);
    for (const part of ['op', 'op_attest', 'op_preattest'])
      await db.raw(`create index ${part}_hash_idx on core_chain.${part === 'op' ? 'op_main' : part} using hash (hash)`);
    await db.raw('create index bigmap_updates_op_idx on bigmaps.bigmap_updates (op) where op is not null');
    // The view of that schema: op_main and the narrow tables, as the previous build made it.
    const op = [...t.app.catalog.tables.values()].find((x) => x.code === 'op')!;
    await db.raw(viewSql(db, op)[0]);

    const report = await new SchemaMigrator(db).migrate(t.app.catalog);
    expect(report.altered).to.include.members(['op', 'bigmap_updates']);
    const { rows: types } = await db.raw(
      `select format_type(atttypid, atttypmod) as type from pg_attribute
        where attrelid = 'core_chain.op_attest'::regclass and attname = 'hash'`,
    );
    expect(types[0].type).to.equal('bytea');
    const { rows: indexes } = await db.raw(
      `select indexrelid::regclass::text as name, pg_get_indexdef(indexrelid) as def from pg_index
        where indexrelid::regclass::text in ('core_chain.op_hash_idx', 'core_chain.op_attest_hash_idx',
              'core_chain.op_preattest_hash_idx', 'bigmaps.bigmap_updates_op_idx')`,
    );
    expect(indexes).to.have.length(4);
    for (const ix of indexes as Array<{ def: string }>)
      expect(ix.def).to.match(/USING btree .*SUBSTRING.*::bigint/i, ix.def);
    expect(await answers()).to.deep.equal(before);
    // Handlers read by base58 hashes (ctx.read): through the key, rows named in base58 again.
    const read = tableReader(db, t.app.catalog);
    expect(await read('op').where('hash', last).select('hash')).to.deep.equal([{ hash: last }]);
    const both = await read('op').whereIn('hash', [first, last]).select('hash').orderBy('row_id');
    expect(both.map((r: { hash: string }) => r.hash)).to.include.members([first, last]);
    expect(await read('op').where('hash', second).where('hash', last)).to.deep.equal([]);

    await indexSandbox(t, chain);
    const [after] = (await db.raw('select max(height)::int as height from core_chain.op')).rows;
    expect(after.height).to.equal(30);
  });
});
