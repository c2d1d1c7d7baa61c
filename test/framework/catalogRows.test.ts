import { expect } from 'chai';
import { parseCatalog } from '../../framework/catalog/CatalogLoader';
import { CatalogRows, type ExplorerRow } from '../../framework/explorer/CatalogRows';
import { BulkWriter } from '../../framework/storage/BulkWriter';
import { Database } from '../../framework/storage/Database';
import { SchemaMigrator } from '../../framework/storage/SchemaMigrator';
import { BACKEND, postgresUrl, scratchDatabase } from '../support/TestDatabase';

// A table wider than one json_build_array takes (100 arguments), with texts JSON must escape.
const WIDTH = 130;
const TEXTS = ['plain', 'a "quoted" \\ back\\slash', 'line\nbreak\ttab', 'ünïcødé ✓ 🌮', '', '\u0001control'];
const columnNames = Array.from({ length: WIDTH }, (_, i) => `s${i}`);
const CATALOG = `
version: 1
plugins:
  fixture:
    tables:
      wide:
        columns:
          - { name: row_id, type: uint64 }
          - { name: doc, type: json, nullable: true }
          - { name: flag, type: bool }
          - { name: tag, type: string }
${columnNames.map((n) => `          - { name: ${n}, type: string, nullable: true }`).join('\n')}
`;
const ROWS = [1, 2, 3, 4].map((row_id) => ({
  row_id,
  doc: row_id === 2 ? null : { k: TEXTS[row_id], n: [row_id, 'x'] },
  flag: row_id % 2 === 0,
  tag: row_id % 2 === 0 ? 'even' : 'odd',
  ...Object.fromEntries(
    columnNames.map((n, i) => [n, (i + row_id) % 7 === 0 ? null : TEXTS[(i + row_id) % TEXTS.length]]),
  ),
}));

describe(`catalog rows: rows as JSON arrays, statements compiled once (${BACKEND})`, function () {
  const database = scratchDatabase({ readPoolSize: 1 });
  const catalog = parseCatalog(CATALOG);
  const wide = catalog.require('wide');
  let db: Database;
  before(async function () {
    db = database();
    await new SchemaMigrator(db.writer).migrate(catalog);
    await db.writer.transaction((trx) => new BulkWriter(db.kind).append(trx, wide, ROWS));
  });

  it('reads every column of a table wider than one JSON array exactly as written, nulls included', async function () {
    const rows = new CatalogRows(db, wide);
    const read = await rows.read(rows.query().orderBy('row_id'));
    expect(read).to.deep.equal(ROWS);
    // The texts equal Postgres' own rendering of each column.
    const text = await rows.readText(rows.query().where('row_id', 3));
    const [own] = (
      await db.reader.raw(
        `select ${columnNames.map((n) => `"${n}"::text as "${n}"`).join(', ')} from "fixture"."wide" where row_id = 3`,
      )
    ).rows;
    expect(Object.fromEntries(columnNames.map((n) => [n, text[0][n]]))).to.deep.equal(own);
  });

  it('a statement answers as the query built for each value does; on Postgres it is built once and runs one plan made for any values', async function () {
    const rows = new CatalogRows(db, wide, ['row_id', 's0', 's129', 'doc']);
    let builds = 0;
    const byFlag = rows.statement((q, flag: boolean, above: number) => {
      builds++;
      return q.where('flag', flag).where('row_id', '>', above).orderBy('row_id', 'desc');
    });
    for (const [flag, above] of [
      [true, 0],
      [false, 1],
      [true, 3],
      [false, 9],
    ] as const) {
      const expected = await rows.read(
        rows.query().where('flag', flag).where('row_id', '>', above).orderBy('row_id', 'desc'),
      );
      expect(await byFlag(flag, above), `flag=${flag} above=${above}`).to.deep.equal(expected);
    }
    expect(builds).to.equal(db.kind === 'postgres' ? 1 : 4);
    if (db.kind === 'postgres') {
      // Asked on the statements' own connection (one: readPoolSize), where they are prepared. Left to
      // choose, Postgres would have planned each of the four runs for its values.
      const plans = db.statement(
        () =>
          db.reader
            .select(db.reader.raw('generic_plans::text, custom_plans::text'))
            .from('pg_prepared_statements')
            .where('statement', 'like', '%"flag" = $1%'),
        0,
      );
      expect(await plans()).to.deep.equal([['4', '0']]);
      // Nor JIT or parallel workers for a lookup of a few rows, however costly a plan over many
      // estimated keys looks (on the demo's op lookup, 25 ms of JIT compiling on every run).
      const settings = db.statement(
        () =>
          db.reader.select(
            db.reader.raw(
              `current_setting('jit') as jit, current_setting('max_parallel_workers_per_gather') as workers`,
            ),
          ),
        0,
      );
      expect(await settings()).to.deep.equal([['off', '0']]);
    }
  });

  it('lookups asked in one round of the event loop run as one statement, each answered with the rows of its own keys', async function () {
    const rows = new CatalogRows(db, wide, ['row_id', 'tag', 's0']);
    const runs = statementRuns(rows);
    const byTags = rows.batched(
      (q, tags) => q.where(rows.anyOf('tag', tags)).where('row_id', '>', 1).orderBy('row_id', 'desc'),
      (r) => [r.tag],
    );
    const own = (tags: string[]) =>
      rows.read(rows.query().whereIn('tag', tags).where('row_id', '>', 1).orderBy('row_id', 'desc'));
    // Two lookups asked at once, two more after the promise jobs and next ticks a request's middleware
    // would run first: all four are one round's.
    const afterMiddleware = async (tags: string[]) => {
      for (let i = 0; i < 5; i++) await Promise.resolve();
      await new Promise((resolve) => process.nextTick(resolve));
      return byTags(tags);
    };
    const asked = [['odd'], ['even', 'odd', 'even'], ['none'], ['odd']];
    const answers = await Promise.all([
      byTags(asked[0]),
      byTags(asked[1]),
      afterMiddleware(asked[2]),
      afterMiddleware(asked[3]),
    ]);
    for (const [i, tags] of asked.entries()) expect(answers[i], tags.join()).to.deep.equal(await own(tags));
    expect(answers.map((a) => a.map((r) => r.row_id))).to.deep.equal([[3], [4, 3, 2], [], [3]]);
    expect(runs).to.deep.equal([[['odd', 'even', 'none']]]);
    // A lookup asked after the round ended runs a statement of its own; no keys, no statement.
    expect(await byTags(['even'])).to.deep.equal(await own(['even']));
    expect(await byTags([])).to.deep.equal([]);
    expect(runs).to.deep.equal([[['odd', 'even', 'none']], [['even']]]);
  });

  it('while two statements run, the lookups asked in later rounds wait and go together in the next one', async function () {
    const rows = new CatalogRows(db, wide, ['row_id', 'tag']);
    // Statements wait until released.
    let release!: () => void;
    const runs = statementRuns(rows, new Promise<void>((resolve) => (release = resolve)));
    const byTags = rows.batched(
      (q, tags) => q.where(rows.anyOf('tag', tags)).orderBy('row_id'),
      (r) => [r.tag],
    );
    const nextRound = async () => {
      await new Promise((resolve) => setImmediate(resolve));
      await new Promise((resolve) => setImmediate(resolve));
    };
    const asked = [['odd'], ['even'], ['odd', 'none'], ['even', 'x']];
    const answers: Promise<ExplorerRow[]>[] = [];
    for (const tags of asked) {
      answers.push(byTags(tags));
      await nextRound();
    }
    // The first two rounds each run a statement at once; the next two wait for one of them.
    expect(runs).to.deep.equal([[['odd']], [['even']]]);
    release();
    expect((await Promise.all(answers)).map((a) => a.map((r) => r.row_id))).to.deep.equal([
      [1, 3],
      [2, 4],
      [1, 3],
      [2, 4],
    ]);
    expect(runs).to.deep.equal([[['odd']], [['even']], [['odd', 'none', 'even', 'x']]]);
  });

  it('a row answering several keys of a lookup comes once; numbers are keys by their text', async function () {
    const rows = new CatalogRows(db, wide, ['row_id', 'tag']);
    const byIdOrTag = rows.batched(
      (q, ids) => q.where(rows.anyOf('row_id', ids)).orderBy('row_id'),
      (r) => [r.row_id, (r.row_id as number) + 1],
    );
    expect((await byIdOrTag([2, 3, 4])).map((r) => r.row_id)).to.deep.equal([2, 3, 4]);
    const [one, two] = await Promise.all([byIdOrTag([1]), byIdOrTag(['3', 2])]);
    // Row 1 answers keys 1 and 2, row 2 keys 2 and 3.
    expect(one.map((r) => r.row_id)).to.deep.equal([1]);
    expect(two.map((r) => r.row_id)).to.deep.equal([1, 2, 3]);
  });

  it('a batched lookup fails every lookup of its round when the database refuses a key, and the next round answers', async function () {
    const rows = new CatalogRows(db, wide, ['row_id', 'tag']);
    const byId = rows.batched(
      (q, ids) => q.where(rows.anyOf('row_id', ids)),
      (r) => [r.row_id],
    );
    const [good, bad] = await Promise.allSettled([byId([2]), byId(['x'])]);
    expect(good.status).to.equal('rejected');
    expect(bad.status).to.equal('rejected');
    expect((await byId([2])).map((r) => r.tag)).to.deep.equal(['even']);
  });

  it("a statement keeps the API's time budget (Postgres): one that runs longer is cancelled", async function () {
    if (db.kind !== 'postgres') this.skip();
    const short = await Database.open({ url: postgresUrl(), dataDir: ':memory:', statementTimeoutMs: 100 });
    try {
      const slow = short.statement(() => short.reader.select(short.reader.raw('pg_sleep(5)::text')), 0);
      // 57014: cancelled by statement_timeout (the sleep itself would end without error).
      const failure = await slow().then(
        () => undefined,
        (e: { code?: string }) => e,
      );
      expect(failure?.code).to.equal('57014');
    } finally {
      await short.close();
    }
  });

  it('a statement that leaves a parameter unused is refused when it is made (Postgres)', function () {
    if (db.kind !== 'postgres') this.skip();
    const rows = new CatalogRows(db, wide, ['row_id']);
    expect(() => rows.statement((q, _unused: number) => q.where('row_id', 1))).to.throw(/parameter 0 is not used/);
  });
});

/** Every run of a statement the rows make from now on, with its values; each waits for `hold` when given. */
function statementRuns(rows: CatalogRows, hold?: Promise<void>): unknown[][] {
  const runs: unknown[][] = [];
  const statement = rows.statement.bind(rows);
  rows.statement = ((build: Parameters<typeof statement>[0]) => {
    const run = statement(build);
    return async (...values: unknown[]) => {
      runs.push(values);
      if (hold) await hold;
      return run(...values);
    };
  }) as typeof rows.statement;
  return runs;
}
