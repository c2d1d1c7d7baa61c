import { expect } from 'chai';
import { physicalTables, storedColumns } from '../../framework/catalog/CatalogModel';
import { EnumType } from '../../framework/catalog/types/EnumType';
import { SandboxChain } from '../../framework/sandbox';
import { SchemaMigrator } from '../../framework/storage/SchemaMigrator';
import { CoreChainPlugin } from '../../plugins/core-chain/plugin';
import { indexSandbox } from '../support/IndexHarness';
import { BACKEND } from '../support/TestDatabase';
import { startTestInstance, TestInstance } from '../support/TestInstance';

// Why: a database of the schema before enum columns were stored as their positions (text labels, collate "C")
// must migrate in place and answer every request as it did: the migration converts each such column
// (ColumnType.convertFrom), under op's view and the partial index that names `type`, and indexing goes on.
describe(`core-chain: a database of the schema with enum columns as text (${BACKEND})`, function () {
  this.timeout(600_000);
  let t: TestInstance;
  after(async () => t?.close());

  it('converts them in place, answers as before, and indexing goes on', async () => {
    const chain = new SandboxChain({ seed: 'explorer', profile: 'tiny' });
    chain.bakeTo(30);
    t = await startTestInstance({ plugins: [CoreChainPlugin], enabled: ['core-chain'] });
    await indexSandbox(t, chain, { toLevel: 20 });
    const db = t.app.db.writer;
    const requests = [
      '/tables/op?limit=100000',
      '/tables/op?type=transaction&limit=100000',
      '/tables/op?type.nin=endorsement,transaction&limit=100000',
      '/tables/flow.csv?limit=100000',
      '/tables/flow?category=rewards&limit=100000',
      '/tables/block?limit=100000',
      '/tables/account?address_type=ed25519&limit=100000',
    ];
    const answers = async (): Promise<string[]> => Promise.all(requests.map(async (r) => (await t.get(r)).text()));
    const before = await answers();
    expect(before[1]).to.include('"transaction"');

    // The previous schema: every enum column of core-chain text, its labels collate "C"; op's view stays.
    const converted: string[] = [];
    await db.raw('drop view core_chain.op');
    await db.raw(`drop index core_chain.op_type_height_no_endorsement_preendorsement_idx`);
    for (const table of t.app.catalog.tables.values()) {
      if (table.plugin !== 'core-chain') continue;
      for (const part of physicalTables(table))
        for (const c of storedColumns(part)) {
          // op's narrow tables' kind is a code of the known kinds since a later schema (attestPartsMigration).
          const narrowed = table.parts?.narrow.some((p) => p.narrowed.includes(c)) === true;
          if (!(c.type instanceof EnumType) || narrowed) continue;
          const labels = c.type.values.map((v) => `'${v}'`).join(', ');
          await db.raw(
            `alter table core_chain.${part.storage} alter column "${c.name}" type text collate "C"
               using (array[${labels}])[("${c.name}")::int + 1]`,
          );
          converted.push(`${part.storage}.${c.name}`);
          await db.raw(`update tzidx.schema_version set definition_hash = 'before' where table_code = ?`, [part.code]);
        }
    }
    await db.raw(`create index op_type_height_no_endorsement_preendorsement_idx on core_chain.op_main (type, height)
       where type not in ('endorsement', 'preendorsement')`);
    await db.raw('create view core_chain.op as select * from core_chain.op_main');
    expect(converted).to.include.members(['op_main.type', 'op_main.status', 'flow.category', 'account.address_type']);
    const { rows: text } = await db.raw(`select count(*)::int as n from core_chain.op_main where type = 'transaction'`);
    expect(text[0].n).to.be.greaterThan(0);

    const report = await new SchemaMigrator(db).migrate(t.app.catalog);
    expect(report.altered).to.include.members(['op', 'flow', 'account', 'block']);
    const { rows: types } = await db.raw(
      `select format_type(atttypid, atttypmod) as type from pg_attribute
        where attrelid = 'core_chain.op_main'::regclass and attname in ('type', 'status')`,
    );
    expect(types.map((r: { type: string }) => r.type)).to.deep.equal(['smallint', 'smallint']);
    const { rows: partial } = await db.raw(
      `select pg_get_indexdef('core_chain.op_type_height_no_endorsement_preendorsement_idx'::regclass) as def`,
    );
    const predicate = String(partial[0].def).split(' WHERE ')[1];
    expect(predicate)
      .to.match(/type.*1.*19/)
      .and.not.include('endorsement');
    expect(await answers()).to.deep.equal(before);

    await indexSandbox(t, chain);
    const [after] = (await db.raw('select max(height)::int as height from core_chain.op')).rows;
    expect(after.height).to.equal(30);
  });
});
