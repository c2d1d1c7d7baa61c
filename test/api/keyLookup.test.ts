import { expect } from 'chai';
import { TABLE_PROFILE } from '../../framework/query/ListProfile';
import { lookUpKeys, TableQueryEngine } from '../../framework/query/TableQueryEngine';
import { parseTableRequest } from '../../framework/query/TableRequest';
import { SandboxChain } from '../../framework/sandbox';
import { CoreChainPlugin } from '../../plugins/core-chain/plugin';
import { indexSandbox } from '../support/IndexHarness';
import { explainAnalyze, rowsRead } from '../support/queryPlans';
import { BACKEND } from '../support/TestDatabase';
import { startTestInstance, TestInstance } from '../support/TestInstance';

// `/tables/flow?address=…` names the account by its address; the rows hold its id. Looked up
// before the query (lookUpKeys), the id is a value the planner's statistics know:
// a busy account's newest rows are read backwards from its index, not all of them read and sorted,
// as for an InitPlan planned for the average account.
/** A valid address no account has. */
const UNKNOWN = 'tz1burnburnburnburnburnburnburjAYjjX';

describe(`tables and explorer lists: an account's rows are found by its id, read by its index in order (${BACKEND})`, function () {
  let t: TestInstance;
  /** The op types lists show unless asked (contract events and unknown kinds are hidden), as SQL. */
  const listedTypes = (): string => {
    const type = t.app.catalog.require('op').column('type')!.type;
    return `type not in (${type.literal('event')}, ${type.literal('unknown')})`;
  };
  let engine: TableQueryEngine;
  let busiest: { address: string; id: string; n: number };
  before(async function () {
    t = await startTestInstance({ plugins: [CoreChainPlugin], enabled: ['core-chain'] });
    const chain = new SandboxChain({ seed: 'key-lookup', profile: 'mainnet-like' });
    chain.bake(200);
    await indexSandbox(t, chain, {});
    await t.app.db.writer.raw('analyze core_chain.flow, core_chain.account, core_chain.op');
    engine = t.app.container.resolve(TableQueryEngine);
    const { rows } = await t.app.db.writer.raw(
      'select a.address, a.row_id::text as id, count(*)::int as n from core_chain.flow f join core_chain.account a on a.row_id = f.account_id group by a.address, a.row_id order by n desc limit 1',
    );
    busiest = rows[0];
  });
  after(async () => t?.close());

  /**
   * The busiest account sends 30,000 operations, then others send 30,000 (it is idle since): read
   * backwards by the row-id index, filtering, the newest page of its operations is 30,000 rows away.
   * Once for the tests that read them; answers the chain's last op row id.
   */
  let idleOps: Promise<number> | undefined;
  function idleAccountOps(): Promise<number> {
    return (idleOps ??= (async () => {
      const chainEnd = Number((await t.app.db.writer.raw('select max(row_id) as r from core_chain.op')).rows[0].r);
      const transaction = t.app.catalog.require('op').column('type')!.type.literal('transaction');
      await t.app.db.writer.raw(
        `insert into core_chain.op
         select r.*
           from (select * from core_chain.op where type = ${transaction} limit 1) o, generate_series(1, 60000) g,
                lateral jsonb_populate_record(null::core_chain.op, to_jsonb(o) || jsonb_build_object(
                  'row_id', ${chainEnd} + g, 'height', 1000 + g / 100, 'op_n', g % 100, 'hash', null,
                  'sender_id', case when g <= 30000 then ? else 1000000 + g % 3000 end)) r`,
        [busiest.id],
      );
      await t.app.db.writer.raw('analyze core_chain.op');
      return chainEnd;
    })());
  }

  async function rows(table: string, args: Record<string, string>): Promise<string[]> {
    const res = await t.get(`/tables/${table}?${new URLSearchParams({ columns: 'row_id', limit: '50000', ...args })}`);
    expect(res.status, await res.clone().text()).to.equal(200);
    return ((await res.json()) as string[][]).map((r) => String(r[0]));
  }

  async function hand(sql: string, bindings: string[] = []): Promise<string[]> {
    return (await t.app.db.writer.raw(`select row_id::text as r from ${sql} order by row_id`, bindings)).rows.map(
      (r: { r: string }) => r.r,
    );
  }

  it('answers what the ids give, for every equality operator, unknown keys and several roles', async () => {
    const id = busiest.id;
    expect(await rows('flow', { address: busiest.address })).to.deep.equal(
      await hand('core_chain.flow where account_id = ?', [id]),
    );
    expect(await rows('flow', { address: UNKNOWN })).to.deep.equal([]);
    expect(await rows('flow', { 'address.in': `${UNKNOWN},${busiest.address}` })).to.deep.equal(
      await hand('core_chain.flow where account_id = ?', [id]),
    );
    expect(await rows('flow', { 'address.ne': busiest.address })).to.deep.equal(
      await hand('core_chain.flow where account_id <> ?', [id]),
    );
    expect(await rows('flow', { 'address.nin': UNKNOWN })).to.deep.equal(await hand('core_chain.flow'));
    // op `address`: any of four roles, one account. (Contract events are listed only when asked for.)
    const listed = listedTypes();
    const ops = await hand(`core_chain.op where ${listed} and ? in (sender_id, receiver_id, creator_id, baker_id)`, [
      id,
    ]);
    expect(ops.length).to.be.above(0);
    expect(await rows('op', { address: busiest.address })).to.deep.equal(ops);
    expect(await rows('op', { 'address.nin': busiest.address })).to.deep.equal(
      await hand(
        `core_chain.op where ${listed} and ? <> all(array_remove(array[sender_id, receiver_id, creator_id, baker_id], null))`,
        [id],
      ),
    );
    expect(await rows('op', { sender: busiest.address, 'receiver.ne': UNKNOWN })).to.deep.equal(
      await hand(`core_chain.op where ${listed} and sender_id = ?`, [id]),
    );
    // op `block`: a hash (looked up, orphans left out) or a height (as it is).
    const block = (await t.app.db.writer.raw('select hash from core_chain.block where height = 150')).rows[0].hash;
    expect(await rows('op', { 'block.in': `${block},151` })).to.deep.equal(
      await hand(`core_chain.op where ${listed} and height in (150, 151)`),
    );
  });

  it("reads only the answered rows of a busy account's newest flows", async () => {
    // Mainnet's shape at a small scale: one account with many flows (a baker, an exchange), idle
    // since; many with a few. These rows come after the chain's, in height and row-id order.
    const chainEnd = String((await t.app.db.writer.raw('select max(row_id) as r from core_chain.flow')).rows[0].r);
    const flowTable = t.app.catalog.require('flow');
    const [balance, transaction] = [
      flowTable.column('category')!.type.literal('balance'),
      flowTable.column('operation')!.type.literal('transaction'),
    ];
    await t.app.db.writer.raw(
      `insert into core_chain.flow (row_id, height, cycle, time, op_n, account_id, category, operation, amount_in, is_fee, is_burned, is_frozen, is_unfrozen, is_shielded, is_unshielded, token_age)
       select m.r + g, 1000 + g / 100, 9, now(), g % 100, case when g <= 30000 then ? else 1000000 + g % 3000 end, ${balance}, ${transaction}, 1, false, false, false, false, false, false, 0
         from generate_series(1, 60000) g, (select max(row_id) as r from core_chain.flow) m`,
      [busiest.id],
    );
    await t.app.db.writer.raw('analyze core_chain.flow');
    const flow = t.app.catalog.require('flow');
    // Newest first (30,000 rows of others away), and oldest first from a cursor.
    // (A list naming it and an unknown address is a list of one id.)
    const cases = [
      ['desc', undefined, { address: busiest.address }],
      ['asc', chainEnd, { address: busiest.address }],
      ['desc', undefined, { 'address.in': `${UNKNOWN},${busiest.address}` }],
    ] as const;
    for (const [order, after, filter] of cases) {
      const req = await lookUpKeys(
        t.app.db.reader,
        parseTableRequest(flow, { columns: 'row_id,height', limit: '20', order, ...filter }, TABLE_PROFILE),
      );
      const q = engine.query(flow, req, 'compact', after, 0, 20);
      const plan = await explainAnalyze(t.app.db, q.toString());
      // As an InitPlan: all 30,000 of the account, read and sorted; by the row-id index: the others'.
      expect(rowsRead(plan, 'flow'), `${order} ${JSON.stringify(filter)}: ${JSON.stringify(plan)}`).to.be.at.most(200);
      expect(((await q) as unknown[]).length).to.equal(20);
    }
  });

  it("reads only the answered rows of an account's operations in any role, active or long idle", async () => {
    const chainEnd = await idleAccountOps();
    const op = t.app.catalog.require('op');
    const engine = t.app.container.resolve(TableQueryEngine);
    // Another account, to ask for both: one page per role and account.
    const other = (
      await t.app.db.writer.raw(
        `select a.address, a.row_id::text as id from core_chain.op o join core_chain.account a on a.row_id = o.receiver_id where a.row_id <> ? limit 1`,
        [busiest.id],
      )
    ).rows[0];
    const cases = [
      ['desc', undefined, { address: busiest.address }, [busiest.id]],
      ['asc', String(chainEnd), { address: busiest.address }, [busiest.id]],
      ['desc', undefined, { 'address.in': `${busiest.address},${other.address}` }, [busiest.id, other.id]],
    ] as const;
    for (const [order, after, filter, ids] of cases) {
      const req = await lookUpKeys(
        t.app.db.reader,
        parseTableRequest(op, { columns: 'row_id,sender', limit: '20', order, ...filter }, TABLE_PROFILE),
      );
      const q = engine.query(op, req, 'compact', after, 0, 20);
      const plan = await explainAnalyze(t.app.db, q.toString());
      expect(rowsRead(plan, 'op'), `${order} ${JSON.stringify(filter)}: ${JSON.stringify(plan)}`).to.be.at.most(
        200 * ids.length,
      );
      const answer = (await q) as unknown as Array<{ k: string }>;
      const hand = await t.app.db.writer.raw(
        `select row_id::text as k from core_chain.op where array[sender_id, receiver_id, creator_id, baker_id] && ?::bigint[] and ${listedTypes()} ${after ? `and row_id > ${after}` : ''} order by row_id ${order} limit 20`,
        [[...ids]],
      );
      expect(answer.map((r) => r.k)).to.deep.equal(hand.rows.map((r: { k: string }) => r.k));
    }
  });

  it("reads only the answered rows of an account idle since long in the explorer's operation list", async () => {
    await idleAccountOps();
    const seen: Array<{ sql: string; bindings: unknown[] }> = [];
    const listen = (q: { sql: string; bindings: unknown[] }) => seen.push(q);
    t.app.db.reader.on('query', listen);
    const res = await t.get(`/explorer/account/${busiest.address}/operations?limit=20`);
    t.app.db.reader.off('query', listen);
    expect(res.status).to.equal(200);
    const answer = (await res.json()) as Array<{ id: number }>;
    const hand = await t.app.db.writer.raw(
      `select ((height << 16) | op_n)::text as id from core_chain.op where ? in (sender_id, receiver_id, creator_id, baker_id) and ${listedTypes()} order by row_id desc limit 20`,
      [busiest.id],
    );
    expect(answer.map((o) => String(o.id))).to.deep.equal(hand.rows.map((r: { id: string }) => r.id));
    let read = 0;
    for (const q of seen.filter((q) => q.sql.includes('"op"'))) {
      // Native placeholders ($1…) back to knex's, with their values in their order.
      const bindings: unknown[] = [];
      const sql = q.sql.replace(/\$(\d+)/g, (_, n: string) => (bindings.push(q.bindings[Number(n) - 1]), '?'));
      read += rowsRead(await explainAnalyze(t.app.db, sql, bindings as string[]), 'op');
    }
    expect(seen.length).to.be.above(0);
    expect(read).to.be.at.most(300);
  });
});
