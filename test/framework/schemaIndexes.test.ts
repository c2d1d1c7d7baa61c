import { expect } from 'chai';
import { CatalogError } from '../../framework/catalog/CatalogError';
import { parseCatalog } from '../../framework/catalog/CatalogLoader';
import { Database } from '../../framework/storage/Database';
import { SchemaMigrator } from '../../framework/storage/SchemaMigrator';
import { BACKEND, scratchDatabase } from '../support/TestDatabase';

const CATALOG = `version: 1
plugins:
  p:
    tables:
      t:
        kind: append
        height_column: height
        columns:
          - { name: row_id, type: uint64 }
          - { name: height, type: uint64 }
          - { name: sender, type: address }
          - { name: receiver, type: address, nullable: true }
          - { name: hash, type: hash }
          - { name: time, type: datetime }
        indexes:
          - [height]
          - [sender, row_id]
          - [receiver, row_id]
          - { columns: [hash], using: hash }
          - { columns: [time], using: brin }
          - { columns: [receiver, height], unique: true }
`;

describe(`schema migration: index methods, and indexes on nullable columns (${BACKEND})`, function () {
  const database = scratchDatabase();
  let db: Database;
  beforeEach(() => (db = database()));

  /** Each index of table t: its method, and its predicate when it is partial. */
  const indexes = async (): Promise<Record<string, string>> => {
    const { rows } = await db.writer.raw(
      `select c.relname as name, am.amname as method, pg_get_expr(i.indpred, i.indrelid) as predicate
         from pg_index i join pg_class c on c.oid = i.indexrelid join pg_class t on t.oid = i.indrelid join pg_am am on am.oid = c.relam
        where t.relname = 't' and not i.indisprimary`,
    );
    return Object.fromEntries(
      (rows as Array<{ name: string; method: string; predicate: string | null }>).map((r) => [
        r.name,
        r.predicate ? `${r.method} where ${r.predicate}` : r.method,
      ]),
    );
  };

  it('builds each index by its declared method, and leaves the nulls out of one led by a nullable column', async function () {
    await new SchemaMigrator(db.writer).migrate(parseCatalog(CATALOG));
    expect(await indexes()).to.deep.equal({
      t_height_idx: 'btree',
      t_sender_row_id_idx: 'btree',
      t_receiver_row_id_idx: 'btree where (receiver IS NOT NULL)',
      t_hash_idx: 'hash',
      t_time_idx: 'brin',
      // A unique index stays whole: ON CONFLICT (receiver, height) could not infer a partial one.
      t_receiver_height_idx: 'btree',
    });
  });

  it('a lookup by the nullable column finds its rows through the partial index', async function () {
    await db.writer.raw(
      `insert into p.t (height, sender, receiver, hash, time)
       select g, 'tz1a', case when g % 10 = 0 then 'tz1b' end, 'oo' || g, timestamptz '2024-01-01' + g * interval '1 minute' from generate_series(1, 2000) g`,
    );
    await db.writer.raw('analyze p.t');
    const { rows } = await db.writer.raw(
      `explain select row_id from p.t where receiver = 'tz1b' order by row_id desc limit 5`,
    );
    expect(rows.map((r: { 'QUERY PLAN': string }) => r['QUERY PLAN']).join('\n')).to.match(/t_receiver_row_id_idx/);
    const found = await db.writer('p.t').where('receiver', 'tz1b').count('* as n').first();
    expect(Number(found!.n)).to.equal(200);
  });

  it('hash and BRIN indexes answer equality and time ranges', async function () {
    await db.writer.raw('set enable_seqscan = off');
    try {
      const plan = async (sql: string): Promise<string> =>
        (await db.writer.raw(`explain ${sql}`)).rows.map((r: { 'QUERY PLAN': string }) => r['QUERY PLAN']).join('\n');
      expect(await plan(`select row_id from p.t where hash = 'oo7'`)).to.match(/t_hash_idx/);
      expect(
        await plan(`select row_id from p.t where time between '2024-01-01 01:00Z' and '2024-01-01 02:00Z'`),
      ).to.match(/t_time_idx/);
    } finally {
      await db.writer.raw('reset enable_seqscan');
    }
    expect((await db.writer('p.t').where('hash', 'oo7').select('height')).map((r) => Number(r.height))).to.deep.equal([
      7,
    ]);
    const inHour = await db
      .writer('p.t')
      .whereBetween('time', ['2024-01-01T01:00:00Z', '2024-01-01T02:00:00Z'])
      .count('* as n')
      .first();
    expect(Number(inHour!.n)).to.equal(61);
  });

  it('rebuilds an index an earlier version made otherwise (full, or another method), and keeps the rows', async function () {
    await db.writer.raw('drop index p.t_receiver_row_id_idx');
    await db.writer.raw('create index t_receiver_row_id_idx on p.t (receiver, row_id)');
    await db.writer.raw('drop index p.t_hash_idx');
    await db.writer.raw('create index t_hash_idx on p.t (hash)');
    await db.writer.raw(`update tzidx.schema_version set definition_hash = 'earlier' where table_code = 't'`);
    const report = await new SchemaMigrator(db.writer).migrate(parseCatalog(CATALOG));
    expect(report.altered).to.deep.equal(['t']);
    const now = await indexes();
    expect([now.t_receiver_row_id_idx, now.t_hash_idx]).to.deep.equal(['btree where (receiver IS NOT NULL)', 'hash']);
    expect(Number((await db.writer('p.t').count('* as n').first())!.n)).to.equal(2000);
  });

  it("drops an index the catalog no longer declares, and leaves an operator's own index alone", async function () {
    const declared = await indexes();
    // As an earlier version would have left them: one of the catalog's names, one long enough for the hash suffix.
    await db.writer.raw('create index t_height_sender_idx on p.t (height, sender)');
    await db.writer.raw(`create index t_height_receiver_${'x'.repeat(36)}_1a2b3c4d on p.t (height, receiver)`);
    await db.writer.raw('create index operator_receiver_lookup on p.t (receiver)');
    await db.writer.raw(`update tzidx.schema_version set definition_hash = 'earlier' where table_code = 't'`);
    await new SchemaMigrator(db.writer).migrate(parseCatalog(CATALOG));
    expect(await indexes()).to.deep.equal({ ...declared, operator_receiver_lookup: 'btree' });
  });

  it('an index that declares `except` leaves those rows out; changing the values builds the new one and drops the old', async function () {
    const withKind = (ix: string): string =>
      CATALOG.replace(
        '          - { name: time, type: datetime }\n',
        '          - { name: time, type: datetime }\n          - { name: kind, type: "enum(vote,ping,transfer,call)", nullable: true }\n',
      ).replace('          - [height]\n', `          - [height]\n          - ${ix}\n`);
    await new SchemaMigrator(db.writer).migrate(parseCatalog(withKind('[kind, height]')));
    // 60 % votes, 20 % pings, the rest transfers and calls: as attestations are most of `op`. Stored as the
    // labels' positions: vote 0, ping 1, transfer 2, call 3.
    await db.writer.raw(
      `insert into p.t (height, sender, hash, time, kind)
       select g, 'tz1a', 'oo' || g, timestamptz '2024-01-01' + g * interval '1 minute',
              (array[0, 0, 0, 1, 2, 0, 0, 0, 1, 3])[g % 10 + 1]
         from generate_series(1, 3000) g`,
    );
    /** The number of rows an index holds: exact for one built over the rows already there. */
    const entries = async (name: string): Promise<number> => {
      const { rows } = await db.writer.raw('select reltuples::bigint as n from pg_class where relname = ?', [name]);
      return Number(rows[0].n);
    };

    await new SchemaMigrator(db.writer).migrate(parseCatalog(withKind('{ columns: [kind, height], except: [vote] }')));
    let now = await indexes();
    expect(now).not.to.have.property('t_kind_height_idx');
    expect(now.t_kind_height_no_vote_idx).to.match(/^btree where \(kind <> 0\)/);
    expect(await entries('t_kind_height_no_vote_idx')).to.equal(1200);

    await new SchemaMigrator(db.writer).migrate(
      parseCatalog(withKind('{ columns: [kind, height], except: [vote, ping] }')),
    );
    now = await indexes();
    expect(now).not.to.have.property('t_kind_height_no_vote_idx');
    expect(now.t_kind_height_no_vote_ping_idx).to.match(/^btree where \(kind <> ALL \(ARRAY\[0, 1\]/);
    expect(await entries('t_kind_height_no_vote_ping_idx')).to.equal(600);

    // Filters naming other values imply the predicate: the planner takes the partial index.
    await db.writer.raw('analyze p.t');
    const plan = async (sql: string): Promise<string> =>
      (await db.writer.raw(`explain ${sql}`)).rows.map((r: { 'QUERY PLAN': string }) => r['QUERY PLAN']).join('\n');
    await db.writer.raw('set enable_seqscan = off');
    try {
      expect(await plan(`select count(*) from p.t where kind = 2 and height between 100 and 400`)).to.match(
        /t_kind_height_no_vote_ping_idx/,
      );
      expect(await plan(`select count(*) from p.t where kind in (2, 3) and height between 100 and 400`)).to.match(
        /t_kind_height_no_vote_ping_idx/,
      );
      expect(await plan(`select count(*) from p.t where kind = 0 and height between 100 and 400`)).not.to.match(
        /no_vote_ping/,
      );
    } finally {
      await db.writer.raw('reset enable_seqscan');
    }
    const counted = await db
      .writer('p.t')
      .whereIn('kind', [2, 3])
      .whereBetween('height', [100, 400])
      .count('* as n')
      .first();
    expect(Number(counted!.n)).to.equal(60);
  });

  it('the catalog refuses left-out values its column type does not parse, and `except` on a unique or hash index', function () {
    const withIndex = (ix: string): string => CATALOG.replace('          - [height]\n', `          - ${ix}\n`);
    expect(() => parseCatalog(withIndex('{ columns: [height], except: [tz1] }'))).to.throw(
      CatalogError,
      /indexes\/0\/except\/0.*'tz1' is not/,
    );
    expect(() => parseCatalog(withIndex('{ columns: [height], except: ["7"], unique: true }'))).to.throw(
      CatalogError,
      /only a non-unique B-tree/,
    );
    expect(() => parseCatalog(withIndex('{ columns: [hash], using: hash, except: [ooX] }'))).to.throw(
      CatalogError,
      /only a non-unique B-tree/,
    );
    expect(() => parseCatalog(withIndex('{ columns: [height], except: [] }'))).to.throw(CatalogError);
  });

  it('the catalog refuses a unique hash or BRIN index and a hash index of several columns', function () {
    const withIndex = (ix: string): string => CATALOG.replace('          - [height]\n', `          - ${ix}\n`);
    expect(() => parseCatalog(withIndex('{ columns: [hash], using: hash, unique: true }'))).to.throw(
      CatalogError,
      /hash index cannot be unique/,
    );
    expect(() => parseCatalog(withIndex('{ columns: [time], using: brin, unique: true }'))).to.throw(
      CatalogError,
      /brin index cannot be unique/,
    );
    expect(() => parseCatalog(withIndex('{ columns: [hash, height], using: hash }'))).to.throw(
      CatalogError,
      /hash index has one column/,
    );
    expect(() => parseCatalog(withIndex('{ columns: [hash], using: gist }'))).to.throw(CatalogError);
  });
});
