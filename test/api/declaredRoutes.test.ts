import { expect } from 'chai';
import { probes } from '../support/probes';
import { explainAnalyze, rowsRead } from '../support/queryPlans';
import { BACKEND } from '../support/TestDatabase';
import { manifestPlugin, startTestInstance, TestInstance } from '../support/TestInstance';

// Routes declared in tables.yaml and served by the generic engine (framework/explorer/DeclaredRoutes):
// an object by address, a list filtered by the path with a required parent row, and a route of a
// disabled plugin. The oracles are the rows inserted below.
const CATALOG = `
version: 1
plugins:
  fixture:
    tables:
      thing:
        columns:
          - { name: row_id, type: uint64 }
          - { name: address, type: address }
          - { name: height, type: uint64 }
          - { name: code, type: bytes, nullable: true }
          - { name: tags, type: string }
          - { name: is_live, type: bool }
      item:
        columns:
          - { name: row_id, type: uint64 }
          - { name: owner, type: address }
          - { name: amount, type: money }
    routes:
      - path: /explorer/thing/:addr
        scope: GetThing
        kind: object
        table: thing
        params: { addr: { column: address, what: thing address } }
        not_found: no such thing
        final_height: height
        fields: [row_id, { name: owner, column: address }, { name: code, render: micheline }, { name: tags, render: csv_list }]
      - path: /explorer/thing/:addr/items
        scope: ListThingItems
        kind: list
        table: item
        params: { addr: { column: owner } }
        requires: { table: thing, params: { addr: address }, where: { is_live: true }, not_found: no such live thing }
        order: desc
        fields: [row_id, amount]
  other:
    tables:
      gadget:
        columns:
          - { name: row_id, type: uint64 }
    routes:
      - { path: /explorer/gadget/:id, scope: GetGadget, kind: object, table: gadget, params: { id: { column: row_id } }, not_found: no gadget }
`;
const ALICE = 'tz1VSUr8wwNhLAzempoch5d6hLRiTh8Cjcjb';
const BOB = 'tz1aSkwEot3L2kmUvcoxzjMomb9mvBNuzFK6';
const CAROL = 'tz1KqTpEZ7Yob7QbPE4Hy4Wo8fHG8LhKxZSx';
const THINGS = [
  // Binary Micheline: 01 = string, 4-byte length, "abc".
  { row_id: 1, address: ALICE, height: 10, code: '0100000003616263', tags: 'x,y', is_live: true },
  { row_id: 2, address: BOB, height: 11, code: null, tags: '', is_live: false },
];
const ITEMS = [1, 2, 3, 4, 5, 6, 7].map((i) => ({
  row_id: i,
  owner: i % 3 === 0 ? BOB : ALICE,
  amount: i * 1_500_000,
}));
const aliceItems = ITEMS.filter((i) => i.owner === ALICE).map((i) => ({ row_id: i.row_id, amount: i.amount / 1e6 }));

describe(`declared routes: objects and lists from tables.yaml (${BACKEND})`, function () {
  let t: TestInstance;
  before(async function () {
    t = await startTestInstance({
      catalogYaml: CATALOG,
      plugins: [manifestPlugin('fixture'), manifestPlugin('other')],
      enabled: ['fixture'],
    });
    await t.insert('thing', THINGS);
    await t.insert('item', ITEMS);
  });
  after(async () => t?.close());

  const { json, error } = probes(() => t);

  it('answers an object with its declared fields in order, renamed and rendered', async () => {
    const res = await t.get(`/explorer/thing/${ALICE}`);
    expect(res.status).to.equal(200);
    expect(await res.text()).to.equal(
      JSON.stringify({ row_id: 1, owner: ALICE, code: { string: 'abc' }, tags: ['x', 'y'] }),
    );
    expect(res.headers.get('etag')).to.be.a('string');
    expect(await json(`/explorer/thing/${BOB}.json`)).to.deep.equal({ row_id: 2, owner: BOB, code: null, tags: [] });
  });

  it('answers a malformed path parameter with 400/1301 and an unknown one with 404/1305', async () => {
    expect(await error('/explorer/thing/tz1nope', 400)).to.deep.include({
      code: 1301,
      detail: "invalid thing address 'tz1nope'",
    });
    expect(await error(`/explorer/thing/${CAROL}`, 404)).to.deep.include({ code: 1305, detail: 'no such thing' });
    expect((await error(`/explorer/thing/${ALICE}.csv`, 400)).code).to.equal(1001);
  });

  it('pages a list filtered by the path, newest first by default', async () => {
    const newest = [...aliceItems].reverse();
    expect(await json(`/explorer/thing/${ALICE}/items`)).to.deep.equal(newest);
    expect(await json(`/explorer/thing/${ALICE}/items?order=asc&limit=2`)).to.deep.equal(aliceItems.slice(0, 2));
    expect(await json(`/explorer/thing/${ALICE}/items?limit=2&cursor=${newest[1].row_id}`)).to.deep.equal(
      newest.slice(2, 4),
    );
    expect(await json(`/explorer/thing/${ALICE}/items?offset=1&limit=1`)).to.deep.equal(newest.slice(1, 2));
    expect(await json(`/explorer/thing/${ALICE}/items?amount.gt=5`)).to.deep.equal(newest.filter((i) => i.amount > 5));
  });

  it('checks the required row before the list, and the list parameters after it', async () => {
    expect(await error('/explorer/thing/tz1nope/items', 400)).to.deep.include({
      code: 1301,
      detail: "invalid owner 'tz1nope'",
    });
    expect((await error(`/explorer/thing/${BOB}/items`, 404)).detail, 'bob is not live').to.equal('no such live thing');
    expect((await error(`/explorer/thing/${CAROL}/items?limit=x`, 404)).detail).to.equal('no such live thing');
    expect((await error(`/explorer/thing/${ALICE}/items?limit=x`, 400)).code).to.equal(1005);
    expect((await error(`/explorer/thing/${ALICE}/items?nope=1`, 400)).detail).to.contain("unknown column 'nope'");
  });

  it('mounts the routes of enabled plugins only, and documents them', async () => {
    expect((await t.get('/explorer/gadget/1')).status).to.equal(404);
    const doc = (await json('/openapi.json')) as {
      paths: Record<string, { get: { summary?: string; operationId?: string } }>;
    };
    expect(Object.keys(doc.paths)).to.include.members(['/explorer/thing/{addr}', '/explorer/thing/{addr}/items']);
    expect(Object.keys(doc.paths).some((p) => p.startsWith('/explorer/gadget'))).to.equal(false);
  });
});

// List routes whose path parameter is on columns leading an index with the row id (a pool's events:
// `pool, row_id`; a wallet's as signer or sender, each `role, row_id`), for a value busy once and
// idle since. The rows below: 30,000 owned by ALICE (every other one paid by her too, the rest by
// BOB), then 30,000 of 3,000 others.
const IDLE_CATALOG = `
version: 1
plugins:
  fixture:
    tables:
      item:
        kind: append
        columns:
          - { name: row_id, type: uint64 }
          - { name: owner, type: address }
          - { name: payer, type: address }
        indexes:
          - [owner, row_id]
          - [payer, row_id]
    routes:
      - { path: /explorer/owner/:addr/items, scope: ListOwnerItems, kind: list, table: item, params: { addr: { column: owner } }, order: desc, fields: [row_id] }
      - { path: /explorer/party/:addr/items, scope: ListPartyItems, kind: list, table: item, params: { addr: { column: [owner, payer] } }, order: desc, fields: [row_id] }
`;

describe(`declared routes: a path value busy once and idle since is read by its index in order (${BACKEND})`, function () {
  let t: TestInstance;
  before(async function () {
    t = await startTestInstance({
      catalogYaml: IDLE_CATALOG,
      plugins: [manifestPlugin('fixture')],
      enabled: ['fixture'],
    });
    const item = t.app.catalog.require('item');
    await t.app.db.writer.raw(
      `insert into ??.?? (row_id, owner, payer)
       select g, case when g <= 30000 then ? else 'tz1other' || (g % 3000) end, case when g <= 30000 and g % 2 = 0 then ? when g <= 30000 then ? else 'tz1payer' || (g % 3000) end
         from generate_series(1, 60000) g`,
      [item.schema, item.storage, ALICE, ALICE, BOB],
    );
    await t.app.db.writer.raw('analyze ??.??', [item.schema, item.storage]);
  });
  after(async () => t?.close());

  /** The route's answer (row ids), and the rows its SELECT read from the table, as EXPLAIN ANALYZE counts them. */
  async function served(path: string, query: string): Promise<{ ids: number[]; read: number }> {
    const statements: Array<{ sql: string; bindings: readonly string[] }> = [];
    const capture = (q: { sql: string; bindings?: unknown[] }) => {
      if (/\bfrom "fixture"\."item"/.test(q.sql))
        statements.push({ sql: q.sql.replace(/\$\d+/g, '?'), bindings: (q.bindings ?? []).map(String) });
    };
    t.app.db.reader.on('query', capture);
    let res: Response;
    try {
      res = await t.get(`${path}?${query}`);
    } finally {
      t.app.db.reader.off('query', capture);
    }
    expect(res.status, await res.clone().text()).to.equal(200);
    expect(statements, 'one statement reads the table').to.have.length(1);
    const plan = await explainAnalyze(t.app.db, statements[0].sql, statements[0].bindings);
    return {
      ids: ((await res.json()) as Array<{ row_id: number }>).map((r) => r.row_id),
      read: rowsRead(plan, 'item'),
    };
  }

  /** The same list by hand: rows where ALICE is in one of `roles`. */
  async function hand(
    roles: string,
    order: 'asc' | 'desc',
    after: number | undefined,
    limit: number,
    offset = 0,
  ): Promise<number[]> {
    const { rows } = await t.app.db.writer.raw(
      `select row_id::int as r from fixture.item where ? in (${roles}) ${after === undefined ? '' : `and row_id ${order === 'asc' ? '>' : '<'} ${after}`} order by row_id ${order} limit ${limit} offset ${offset}`,
      [ALICE],
    );
    return rows.map((r: { r: number }) => r.r);
  }

  it("reads only the answered rows, newest first and after a cursor, not the others' rows since", async () => {
    const newest = await served(`/explorer/owner/${ALICE}/items`, 'limit=20');
    expect(newest.ids).to.deep.equal(await hand('owner', 'desc', undefined, 20));
    // Walking the row-id index from the table's end, filtering: the 30,000 rows of the others first.
    expect(newest.read).to.be.at.most(200);
    const after = await served(`/explorer/owner/${ALICE}/items`, 'order=asc&cursor=29990&limit=20');
    expect(after.ids)
      .to.deep.equal(await hand('owner', 'asc', 29990, 20))
      .and.to.have.length(10);
    // Walking forwards from the cursor: its last 10 rows, then every row after them, for more.
    expect(after.read).to.be.at.most(200);
  });

  it('reads a parameter on several columns as a page per column, merged: each row once, only the answered rows read', async () => {
    const cases = [
      ['limit=20', 'desc', undefined, 20, 0],
      ['limit=5&offset=3', 'desc', undefined, 5, 3],
      ['order=asc&cursor=29990&limit=20', 'asc', 29990, 20, 0],
      ['order=asc&limit=7', 'asc', undefined, 7, 0],
    ] as const;
    for (const [query, order, after, limit, offset] of cases) {
      const got = await served(`/explorer/party/${ALICE}/items`, query);
      // ALICE owns and pays every other row: those answer once.
      expect(got.ids, query).to.deep.equal(await hand('owner, payer', order, after, limit, offset));
      // As one OR: all 30,000 of her rows read by a bitmap and sorted, or the row-id index walked.
      expect(got.read, query).to.be.at.most(2 * 200);
    }
  });
});
