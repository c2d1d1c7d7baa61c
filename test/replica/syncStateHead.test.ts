import { expect } from 'chai';
import { parseCatalog } from '../../framework/catalog/CatalogLoader';
import { SyncState } from '../../framework/indexer/SyncState';
import { META_SCHEMA, SchemaMigrator } from '../../framework/storage/SchemaMigrator';
import { EMPTY_CATALOG } from '../support/TestInstance';
import { BACKEND, scratchDatabase } from '../support/TestDatabase';

/**
 * Why: `tzidx serve` replicas take the head the indexer tells clients (protocol, head time, block
 * interval, final depth) from the sync cursor. A database of the schema before those columns migrates
 * keeping its cursor, and a rollback's cursor leaves the head as the indexer's memory leaves it.
 */
describe(`the sync cursor's head, for replicas (${BACKEND})`, function () {
  this.timeout(60_000);
  const db = scratchDatabase();
  const sync = new SyncState();

  it('an older sync_state gets the head columns and keeps its cursor', async () => {
    const knex = db().writer;
    await knex.raw(`create schema if not exists ${META_SCHEMA}`);
    await knex.raw(`create table ${META_SCHEMA}.sync_state (
       id integer primary key check (id = 1), height bigint not null, hash text not null,
       chain_id text, updated_at timestamptz not null default now())`);
    await knex.raw(
      `insert into ${META_SCHEMA}.sync_state (id, height, hash, chain_id) values (1, 41, 'BLold', 'NetX')`,
    );
    await new SchemaMigrator(knex).migrate(parseCatalog(EMPTY_CATALOG));
    expect(await sync.read(knex)).to.deep.equal({ height: 41, hash: 'BLold', chainId: 'NetX', head: undefined });
  });

  it('a batch writes the head, a rollback leaves it', async () => {
    const knex = db().writer;
    const head = { protocol: 'PsUshuai', time: 1_782_000_006_000, blockInterval: 6, finalDepth: 64 };
    await knex.transaction((trx) => sync.write(trx, { height: 42, hash: 'BLnew', chainId: 'NetX', head }));
    expect(await sync.read(knex)).to.deep.equal({ height: 42, hash: 'BLnew', chainId: 'NetX', head });
    await knex.transaction((trx) => sync.write(trx, { height: 40, hash: 'BLback', chainId: 'NetX' }));
    expect(await sync.read(knex)).to.deep.equal({ height: 40, hash: 'BLback', chainId: 'NetX', head });
  });
});
