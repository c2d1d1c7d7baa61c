import { expect } from 'chai';
import type { Knex } from 'knex';
import { MAX_HEADER_BYTES } from '../../framework/http/ApiServer';
import { TABLE_PROFILE } from '../../framework/query/ListProfile';
import { TableQueryEngine } from '../../framework/query/TableQueryEngine';
import { parseTableRequest } from '../../framework/query/TableRequest';
import { MAX_LIST_VALUES } from '../../framework/query/ValueLists';
import { createLogger } from '../../framework/util/Logger';
import { startDexInstance } from '../defi-dex/api/dexSetup';
import { expectApiError } from '../support/apiErrors';
import type { PlanNode } from '../support/queryPlans';
import { BACKEND } from '../support/TestDatabase';
import type { TestInstance } from '../support/TestInstance';

// Long `in`/`nin` lists (issue #51): each list travels as one array parameter, so 65,534 or 100,000
// values answer what the same filter written as a short list answers; more values than the limit are
// a 400, a URL past the server's limit a JSON 4XX; a failed query logs a bounded line, never its values.

/** `n` comma-separated values: the i-th is `value(i)`. */
const list = (n: number, value: (i: number) => number | string): string =>
  Array.from({ length: n }, (_, i) => value(i)).join(',');
const even = (i: number): number => 2 * i;
type Rows = unknown[];

/** A plan node and all below it. */
const nodes = (node: PlanNode): PlanNode[] => [node, ...((node.Plans as PlanNode[] | undefined) ?? []).flatMap(nodes)];

describe(`long filter lists on every list route (${BACKEND})`, function () {
  this.timeout(600_000);
  let t: TestInstance;
  const logged: string[] = [];
  /** Row ids, heights and event heights of the indexed chain, read without filters. */
  let opIds: number[];
  let opHeights: number[];
  let eventHeights: number[];
  let account: string;

  before(async function () {
    ({ t } = await startDexInstance(createLogger('error', { write: (line: string) => logged.push(line) })));
    const ops = (await ok('/tables/op?columns=row_id,height,sender&limit=50000')) as [number, number, string | null][];
    opIds = ops.map((r) => r[0]);
    opHeights = [...new Set(ops.map((r) => r[1]))];
    const senders = new Map<string, number>();
    for (const [, , s] of ops) if (s) senders.set(s, (senders.get(s) ?? 0) + 1);
    account = [...senders].sort((a, b) => b[1] - a[1])[0][0];
    eventHeights = [...new Set(((await ok('/v1/dex/events?limit=500')) as { block: number }[]).map((e) => e.block))];
  });
  after(() => t?.close());

  async function ok(path: string): Promise<Rows> {
    const res = await t.get(path);
    const text = await res.text();
    expect(res.status, `${path.slice(0, 120)}: ${text.slice(0, 300)}`).to.equal(200);
    return JSON.parse(text) as Rows;
  }

  /** The answer to `long` (with a long list) equals that to `short`, which holds some but not all rows of `all`. */
  async function sameAnswer(long: string, short: string, all: Rows): Promise<void> {
    const expected = await ok(short);
    expect(expected.length, `rows of ${short}`).to.be.greaterThan(0).and.lessThan(all.length);
    expect(await ok(long)).to.deep.equal(expected);
  }
  const evens = (values: readonly number[]): string => values.filter((v) => v % 2 === 0).join(',');
  const odds = (values: readonly number[]): string => values.filter((v) => v % 2 === 1).join(',');

  for (const n of [65_534, MAX_LIST_VALUES]) {
    it(`/tables/op: row_id.in and height.nin of ${n} values`, async function () {
      const path = '/tables/op?columns=row_id,hash,type&limit=50000';
      const all = await ok(path);
      await sameAnswer(`${path}&row_id.in=${list(n, even)}`, `${path}&row_id.in=${evens(opIds)}`, all);
      await sameAnswer(`${path}&height.in=${list(n, even)}`, `${path}&height.in=${evens(opHeights)}`, all);
      // None of the even heights: the odd ones.
      await sameAnswer(`${path}&height.nin=${list(n, even)}`, `${path}&height.in=${odds(opHeights)}`, all);
    });

    it(`/series/op: height.in of ${n} values`, async function () {
      const [first] = (await ok('/tables/block?columns=time&limit=1'))[0] as [number];
      const [last] = (await ok('/tables/block?columns=time&limit=1&order=desc'))[0] as [number];
      const path = `/series/op?collapse=1m&columns=time,count,fee&start_date=${first}&end_date=${last}&limit=50000`;
      const all = (await ok(path)) as [number, number][];
      expect(all.some((r) => r[1] > 0)).to.equal(true);
      const long = await ok(`${path}&height.in=${list(n, even)}`);
      expect(long).to.deep.equal(await ok(`${path}&height.in=${evens(opHeights)}`));
      expect(long).to.not.deep.equal(all);
      const none = await ok(`${path}&height.nin=${list(n, even)}`);
      expect(none).to.deep.equal(await ok(`${path}&height.in=${odds(opHeights)}`));
    });

    it(`/v1/dex/events (a declared list route): block.in of ${n} values`, async function () {
      const path = '/v1/dex/events?limit=500';
      const all = await ok(path);
      await sameAnswer(`${path}&block.in=${list(n, even)}`, `${path}&block.in=${evens(eventHeights)}`, all);
      await sameAnswer(`${path}&block.nin=${list(n, even)}`, `${path}&block.in=${odds(eventHeights)}`, all);
    });
  }

  it('/tables/op: sender.in of 50,000 addresses (looked up to ids, a 1.8 MB URL)', async function () {
    const path = '/tables/op?columns=row_id,hash,type&limit=50000';
    const long = list(50_000, (i) => (i % 1000 === 7 ? account : 'tz1burnburnburnburnburnburnburjAYjjX'));
    await sameAnswer(`${path}&sender.in=${long}`, `${path}&sender=${account}`, await ok(path));
  });

  for (const n of [20_000, 40_000, 65_534, MAX_LIST_VALUES]) {
    it(`/explorer/account/{a}/operations (a page per role, merged): height.in of ${n} values`, async function () {
      const path = `/explorer/account/${account}/operations?limit=500`;
      const all = await ok(path);
      await sameAnswer(`${path}&height.in=${list(n, even)}`, `${path}&height.in=${evens(opHeights)}`, all);
    });
  }

  it(`over ${MAX_LIST_VALUES} values in a request, in one list or several: 400/1007 naming the limit`, async () => {
    const explorer = `/explorer/account/${account}/operations?`;
    const paths = ['/tables/op?', explorer, '/v1/dex/events?', '/series/op?collapse=1d&'];
    const queries = [
      `height.in=${list(MAX_LIST_VALUES + 1, even)}`,
      `height.in=${list(50_001, even)}&height.nin=${list(50_000, even)}`,
    ];
    for (const query of queries) {
      for (const path of paths) {
        const error = await expectApiError(await t.get(path + query), 400, 1007, path);
        expect(error.detail, path)
          .to.contain(String(MAX_LIST_VALUES))
          .and.not.match(/select|\$\d|any\(/i);
      }
    }
  });

  it('a URL past the server limit gets a JSON error, not a reset connection', async function () {
    const values = list(Math.ceil(MAX_HEADER_BYTES / 8), () => '1234567');
    const res = await t.get(`/tables/op?row_id.in=${values}`);
    expect(res.status).to.be.oneOf([400, 414, 431]);
    expect(JSON.parse(await res.text()).errors[0]).to.include({ status: res.status });
  });

  it('= any(array) on indexed columns is answered by their indexes (hash, B-tree, partial)', async function () {
    const hashes = ((await ok('/tables/op?columns=hash&type=transaction&limit=3')) as [string][]).map((r) => r[0]);
    for (const [query, index] of [
      [`hash.in=${hashes.join(',')}`, 'op_hash_idx'],
      ['height.in=3,5', 'op_height_idx'],
      ['type.in=transaction,reveal&height.gte=0', 'op_type_height'],
    ]) {
      const plan = await t.app.db.writer.transaction(async (trx) => {
        // The planner would read a table this small whole (by a scan, or by the row-id index in order,
        // filtering): refused here, it must find an index that answers.
        await trx.raw('set local enable_seqscan = off');
        await trx.raw('set local enable_indexscan = off');
        const { sql, bindings } = tableQuery(query).toSQL().toNative();
        const explained = await trx.raw(`explain (format json) ${sql.replace(/\$\d+/g, '?')}`, bindings);
        return explained.rows[0]['QUERY PLAN'][0].Plan as PlanNode;
      });
      // A partitioned table's scans name its partitions' indexes: those attached to the named one count.
      const { rows: children } = await t.app.db.writer.raw(
        `select c.relname as name from pg_inherits i join pg_class c on c.oid = i.inhrelid
           join pg_class p on p.oid = i.inhparent where p.relkind = 'I' and p.relname like ?`,
        [`${index}%`],
      );
      const names = [index, ...(children as { name: string }[]).map((c) => c.name)];
      const scans = nodes(plan).filter((node) => names.some((n) => String(node['Index Name']).startsWith(n)));
      const conditions = scans.map((node) => String(node['Index Cond']));
      expect(
        conditions.some((c) => c.includes('= ANY')),
        `${query}: ${JSON.stringify(plan)}`,
      ).to.equal(true);
    }
  });

  /** The engine's first-page query of `/tables/op?{query}`. */
  function tableQuery(query: string): Knex.QueryBuilder {
    const table = t.app.catalog.table('op')!;
    const req = parseTableRequest(table, Object.fromEntries(new URLSearchParams(query)), TABLE_PROFILE);
    return t.app.container.resolve(TableQueryEngine).query(table, req, 'compact', undefined, 0, 100);
  }

  it('a failed query logs a bounded line (SQL cut, parameter count, no values); the answer has no SQL', async () => {
    // A statement of 70,000 parameters fails on both backends; its error keeps the SQL's start and the count.
    const values = Array.from({ length: 70_000 }, (_, i) => i);
    const err = await t.app.db.reader.raw(`select ${list(70_000, () => '?::int')}`, values).then(
      () => expect.fail('70,000 parameters were accepted'),
      (e: Error) => e,
    );
    expect(err.message.length).to.be.lessThan(2_000);
    expect(err.message).to.contain('(70000 parameters)');
    // A query failing on the server (a column gone) for a long list over HTTP: a 500 without SQL, one bounded log line.
    await t.app.db.writer.raw('alter table core_chain.op rename column op_n to op_n_gone');
    try {
      logged.length = 0;
      const res = await t.get(`/tables/op?columns=row_id,op_n&row_id.in=${list(MAX_LIST_VALUES, even)}`);
      const error = await expectApiError(res, 500, 1100);
      expect(JSON.stringify(error)).to.not.match(/select|op_n|core_chain|\$\d/i);
      const line = logged.find((l) => l.includes('request failed'));
      expect(line, logged.join('\n').slice(0, 500)).to.be.a('string');
      expect(line!.length).to.be.lessThan(16_000);
      const entry = JSON.parse(line!) as { err: { message: string }; url: string };
      expect(entry.err.message)
        .to.contain('op_n')
        .and.match(/\(\d+ parameters\)/);
      expect(entry.url).to.match(/… \(\d+ characters\)$/);
      // The URL is cut (above); the error holds no values.
      expect(JSON.stringify(entry.err)).to.not.contain(list(10, (i) => even(i + 10)));
    } finally {
      await t.app.db.writer.raw('alter table core_chain.op rename column op_n_gone to op_n');
    }
  });
});
