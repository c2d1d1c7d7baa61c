import * as fs from 'node:fs';
import { expect } from 'chai';
import { parse } from 'yaml';
import { Catalog } from '../../framework/catalog/Catalog';
import { SandboxChain } from '../../framework/sandbox';
import { SchemaMigrator } from '../../framework/storage/SchemaMigrator';
import { CoreChainPlugin } from '../../plugins/core-chain/plugin';
import { indexSandbox } from '../support/IndexHarness';
import { catalogWithSpan } from '../support/partitionCatalogs';
import { BACKEND } from '../support/TestDatabase';
import { startTestInstance, TestInstance } from '../support/TestInstance';

// Why: a database of the schema before op was stored in parts (every operation in the table
// core_chain.op) must keep every row and go on indexing: the migration turns the table into op_main
// (its indexes keep their names), moves the attestations into op_attest, makes op the view, and the view reads
// exactly what the table held, in the same row ids; blocks indexed after it continue the same row ids.
// (Unpartitioned tables, as then: heightPartitions.test.ts migrates those.)
/** Indexing goes on after the migration: up to block 30, every row id once. */
async function indexesOnToThirty(t: TestInstance, chain: SandboxChain): Promise<void> {
  await indexSandbox(t, chain);
  const [after] = (
    await t.app.db.writer.raw(
      'select count(*)::int as n, count(distinct row_id)::int as ids, max(height)::int as height from core_chain.op',
    )
  ).rows;
  expect(after.height).to.equal(30);
  expect(after.ids).to.equal(after.n);
}

describe(`core-chain: a database of the schema before op's narrow attestation tables (${BACKEND})`, function () {
  this.timeout(600_000);
  let t: TestInstance;
  after(async () => t?.close());

  it('is migrated (attestations moved, every row read as before) and indexing goes on', async () => {
    const chain = new SandboxChain({ seed: 'explorer', profile: 'tiny' });
    chain.bakeTo(30);
    t = await startTestInstance({
      catalogYaml: catalogWithSpan(),
      plugins: [CoreChainPlugin],
      enabled: ['core-chain'],
    });
    await indexSandbox(t, chain, { toLevel: 20 });
    const db = t.app.db.writer;
    const type = (label: string): string => t.app.catalog.require('op').column('type')!.type.literal(label);
    // The previous schema: one table `op` with every row, its indexes named op_*, as recorded then.
    await db.raw(
      `insert into core_chain.op_main select * from core_chain.op
        where type in (${type('endorsement')}, ${type('preendorsement')})`,
    );
    await db.raw('drop view core_chain.op');
    await db.raw('drop table core_chain.op_attest, core_chain.op_preattest');
    await db.raw('alter table core_chain.op_main rename to op');
    const { rows: indexes } = await db.raw(
      `select indexrelid::regclass::text as name from pg_index where indrelid = 'core_chain.op'::regclass`,
    );
    for (const { name } of indexes as Array<{ name: string }>)
      if (name.startsWith('core_chain.op_main_'))
        await db.raw(`alter index ${name} rename to ${name.replace(/^core_chain\.op_main_/, 'op_')}`);
    const indexesBefore = (
      await db.raw(
        `select 'core_chain.' || indexname as name from pg_indexes where schemaname = 'core_chain' and tablename = 'op'`,
      )
    ).rows
      .map((r: { name: string }) => r.name)
      .sort();
    expect(indexesBefore).to.include('core_chain.op_pkey').and.include('core_chain.op_hash_idx');
    await db.raw(`delete from tzidx.schema_version where table_code in ('op_attest', 'op_preattest')`);
    await db.raw(`update tzidx.schema_version set definition_hash = 'before' where table_code = 'op'`);
    const [{ n: attestations }] = (
      await db.raw(`select count(*)::int as n from core_chain.op where type = ${type('endorsement')}`)
    ).rows;
    expect(attestations).to.be.greaterThan(0);
    const all = 'select * from core_chain.op order by row_id';
    const before = (await db.raw(all)).rows;

    const report = await new SchemaMigrator(db).migrate(t.app.catalog);
    expect(report.altered).to.deep.equal(['op']);
    expect((await db.raw(all)).rows).to.deep.equal(before);
    const count = (table: string) => db.raw(`select count(*)::int as n from core_chain.${table}`);
    expect((await count('op_attest')).rows[0].n).to.equal(attestations);
    expect((await count(`op_main where type = ${type('endorsement')}`)).rows[0].n).to.equal(0);
    const names = async (table: string): Promise<string[]> =>
      (
        await db.raw(`select indexrelid::regclass::text as name from pg_index where indrelid = ?::regclass`, [table])
      ).rows
        .map((r: { name: string }) => r.name)
        .sort();
    expect(await names('core_chain.op_main')).to.deep.equal(indexesBefore);

    await indexesOnToThirty(t, chain);
    expect((await count(`op_attest where height > 20`)).rows[0].n).to.be.greaterThan(0);
  });

  // Why: the first narrow tables stored cycle and time and op_n/op_p in 8 bytes; such a database must
  // read the same rows after the migration (cycle and time from the block) and go on indexing.
  it('of the first narrow tables (cycle, time, 8-byte positions) is migrated and indexing goes on', async () => {
    const chain = new SandboxChain({ seed: 'explorer', profile: 'tiny' });
    chain.bakeTo(30);
    await t?.close();
    t = await startTestInstance({
      catalogYaml: catalogWithSpan(),
      plugins: [CoreChainPlugin],
      enabled: ['core-chain'],
    });
    await indexSandbox(t, chain, { toLevel: 20 });
    const db = t.app.db.writer;
    const all = 'select * from core_chain.op order by row_id';
    const before = (await db.raw(all)).rows;
    const view = (await db.raw(`select pg_get_viewdef('core_chain.op'::regclass) as sql`)).rows[0].sql;
    await db.raw('drop view core_chain.op');
    for (const table of ['op_attest', 'op_preattest']) {
      await db.raw(`alter table core_chain.${table} alter column op_n type bigint, alter column op_p type bigint,
        add column cycle bigint, add column time timestamptz`);
      await db.raw(`update core_chain.${table} n set cycle = b.cycle, time = b.time
        from core_chain.block b where b.height = n.height and not b.is_orphan`);
    }
    await db.raw(`create view core_chain.op as ${view}`);
    await db.raw(`update tzidx.schema_version set definition_hash = 'before' where table_code like 'op_%attest'`);

    const report = await new SchemaMigrator(db).migrate(t.app.catalog);
    expect(report.altered).to.deep.equal(['op']);
    expect((await db.raw(all)).rows).to.deep.equal(before);
    const { rows: columns } = await db.raw(
      `select column_name as name, data_type as type from information_schema.columns
        where table_schema = 'core_chain' and table_name = 'op_attest' order by ordinal_position`,
    );
    expect(columns.map((c: { name: string }) => c.name))
      .to.not.include('cycle')
      .and.not.include('time');
    expect(columns.find((c: { name: string }) => c.name === 'op_n').type).to.equal('smallint');

    await indexesOnToThirty(t, chain);
  });

  // Why: the narrow tables before kind was a code of the known kinds (text kind, reward and deposit, 4-byte
  // positions and 8-byte power) must be rewritten: every row reads the same, and a row the new shape
  // cannot hold (an Emmy endorsement's reward and deposit, a kind not listed, a position from 2^15 on)
  // goes to op_main with all its values.
  it('of the narrow tables with text kinds and rewards is rewritten, no value lost, and indexing goes on', async () => {
    const chain = new SandboxChain({ seed: 'explorer', profile: 'tiny' });
    chain.bakeTo(30);
    await t?.close();
    t = await startTestInstance({ plugins: [CoreChainPlugin], enabled: ['core-chain'] });
    await indexSandbox(t, chain, { toLevel: 20 });
    const db = t.app.db.writer;
    // The previous schema, made by the migrator from the catalog of then: every row back in op_main first.
    await db.raw(`insert into core_chain.op_main select * from core_chain.op
      where row_id in (select row_id from core_chain.op_attest union all select row_id from core_chain.op_preattest)`);
    await db.raw('drop view core_chain.op');
    await db.raw('drop table core_chain.op_attest, core_chain.op_preattest');
    await db.raw(`delete from tzidx.schema_version where table_code in ('op_attest', 'op_preattest')`);
    const decl = parse(fs.readFileSync('tables.yaml', 'utf8'));
    decl.plugins['core-chain'].tables.op.parts = {
      ...decl.plugins['core-chain'].tables.op.parts,
      columns: ['row_id', 'height', 'sender_id', 'power', 'reward', 'deposit', 'op_n', 'op_p', 'hash', 'kind'],
      types: { op_n: 'uint32', op_p: 'uint32' },
    };
    const op = Catalog.fromDeclarations(decl).require('op');
    await new SchemaMigrator(db).migrate(new Catalog(new Map([['op', op]]), new Map()));
    const first = async (where: string): Promise<string> =>
      (await db.raw(`select min(row_id)::text as id from core_chain.op_attest where ${where}`)).rows[0].id;
    const emmy = await first('true');
    await db.raw(`update core_chain.op_attest set reward = 1280000, deposit = 64000000 where row_id = ?`, [emmy]);
    const newKind = await first(`row_id > ${emmy}`);
    await db.raw(`update core_chain.op_attest set kind = 'attestation_with_bls' where row_id = ?`, [newKind]);
    const far = await first(`row_id > ${newKind}`);
    await db.raw(`update core_chain.op_attest set op_p = 32768 where row_id = ?`, [far]);
    const all = 'select * from core_chain.op order by row_id';
    const before = (await db.raw(all)).rows;
    const attestations = (await db.raw('select count(*)::int as n from core_chain.op_attest')).rows[0].n;

    const report = await new SchemaMigrator(db).migrate(t.app.catalog);
    expect(report.altered).to.deep.equal(['op']);
    expect((await db.raw(all)).rows).to.deep.equal(before);
    const { rows: kept } = await db.raw(
      `select row_id::text as id, reward::text, deposit::text, kind, op_p::int from core_chain.op_main
        where row_id in (?, ?, ?) order by row_id`,
      [emmy, newKind, far],
    );
    expect(kept).to.deep.equal([
      { id: emmy, reward: '1280000', deposit: '64000000', kind: kept[0].kind, op_p: kept[0].op_p },
      { id: newKind, reward: null, deposit: null, kind: 'attestation_with_bls', op_p: kept[1].op_p },
      { id: far, reward: null, deposit: null, kind: kept[2].kind, op_p: 32768 },
    ]);
    expect((await db.raw('select count(*)::int as n from core_chain.op_attest')).rows[0].n).to.equal(attestations - 3);
    const { rows: columns } = await db.raw(
      `select column_name as name, data_type as type from information_schema.columns
        where table_schema = 'core_chain' and table_name = 'op_attest' order by ordinal_position`,
    );
    expect(columns).to.deep.equal(
      [
        ['row_id', 'bigint'],
        ['height', 'bigint'],
        ['sender_id', 'bigint'],
        ['op_n', 'smallint'],
        ['op_p', 'smallint'],
        ['power', 'smallint'],
        ['kind', 'smallint'],
        ['hash', 'bytea'],
      ].map(([name, type]) => ({ name, type })),
    );

    await indexesOnToThirty(t, chain);
  });
});
