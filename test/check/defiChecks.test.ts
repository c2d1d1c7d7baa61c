import { expect } from 'chai';
import { BUILTIN_PLUGIN_DIR } from '../../framework/app/TzidxApp';
import type { Violation } from '../../framework/check/Reconciliation';
import { main } from '../../framework/cli/tzidx';
import { discoverPlugins } from '../../framework/plugins/PluginDiscovery';
import { SandboxChain } from '../../framework/sandbox';
import { indexSandbox } from '../support/IndexHarness';
import { BACKEND } from '../support/TestDatabase';
import { startTestInstance, type TestInstance } from '../support/TestInstance';

// The bigmaps plugin too, as `npm start` runs it: its updates hold the big-map pools' reserves (dex.reserves).
const DEFI = ['core-chain', 'bigmaps', 'defi-dex', 'defi-farm', 'defi-lending'];
const farmOrLending = (check: string): boolean => check.startsWith('farm.') || check.startsWith('lend.');

/**
 * `tzidx check defi` over every DeFi adapter's sandbox traffic: each invariant is shown to fire on a row
 * broken by one raw unit (or one flag), and only on that row; what the clean data already breaks is
 * listed by the baseline run and printed, so a regression of a check shows as a changed count.
 */
describe(`tzidx check defi: reconciliation of the DeFi tables (${BACKEND})`, function () {
  this.timeout(300_000);
  let t: TestInstance;
  const run = async (pool?: string): Promise<Violation[]> => {
    const out: Violation[] = [];
    for (const c of t.app.checks('defi')) out.push(...(await c.run({ pool })));
    return out;
  };
  const key = (v: Violation): string => `${v.check} ${v.subject} ${v.detail}`;
  let baseline: Set<string>;
  /** The baseline's violations (what a check could not look at, `notChecked`, is no violation). */
  let violations: Set<string>;
  const added = async (pool?: string): Promise<Violation[]> => (await run(pool)).filter((v) => !baseline.has(key(v)));
  const eventType = (label: string, table = 'dex_event'): string =>
    t.app.catalog.require(table).column('event_type')!.type.literal(label);
  const sql = (text: string, bindings: unknown[] = []) => t.app.db.writer.raw(text, bindings as never[]);

  before(async () => {
    const chain = new SandboxChain({ seed: 'defi-check', profile: 'tiny' });
    // Long enough for the traffic to open the QuipuSwap V3 pool (its first `set_position` is at level 175).
    chain.bakeTo(180);
    t = await startTestInstance({
      plugins: discoverPlugins([BUILTIN_PLUGIN_DIR]).filter((p) => DEFI.includes(p.manifest.name)),
    });
    await indexSandbox(t, chain);
    const found = await run();
    baseline = new Set(found.map(key));
    violations = new Set(found.filter((v) => !v.notChecked).map(key));
  });
  after(async () => t?.close());

  it('declares the ledger checks of the DEX, farm and lending tables', () => {
    expect(t.app.checks('defi').map((c) => c.name)).to.have.members([
      'dex.non_negative',
      'dex.closed',
      'dex.holding_ledger',
      'dex.group_total',
      'dex.reserves',
      'dex.trade_moves',
      'farm.non_negative',
      'farm.closed',
      'farm.holding_ledger',
      'farm.group_total',
      'farm.rewards_paid',
      'lend.non_negative',
      'lend.closed',
    ]);
    expect(t.app.checks('nothing')).to.deep.equal([]);
  });

  it('a DEX position one share short breaks its ledger and its pool total, and only those', async () => {
    const [p] = (
      await sql(
        // In a pool whose supply_lp is a share total (a concentrated pool's is its active liquidity).
        `select position, pool, shares from defi_dex.dex_position where not is_closed and shares > 1
         and pool in (select pool from defi_dex.dex_pool where marginal_a is null) order by row_id limit 1`,
      )
    ).rows;
    expect(p, 'an open position').to.not.equal(undefined);
    await sql('update defi_dex.dex_position set shares = shares - 1 where position = ?', [p.position]);
    try {
      const found = (await added()).map((v) => [v.check, v.subject]);
      expect(found).to.have.deep.members([
        ['dex.holding_ledger', p.position],
        ['dex.group_total', p.pool],
      ]);
      // Scoped to another pool, the broken one is not reported.
      const [other] = (await sql('select pool from defi_dex.dex_pool where pool <> ? limit 1', [p.pool])).rows;
      expect((await added(other.pool)).length).to.equal(0);
    } finally {
      await sql('update defi_dex.dex_position set shares = shares + 1 where position = ?', [p.position]);
    }
    expect(await added()).to.deep.equal([]);
  });

  it('a position flagged closed with shares left and no close height, and a negative reserve, are reported with their block', async () => {
    const [p] = (
      await sql(
        `select position, pool, update_height from defi_dex.dex_position where not is_closed and shares > 0
         and pool in (select pool from defi_dex.dex_pool where marginal_a is null) order by row_id limit 1`,
      )
    ).rows;
    const [e] = (
      await sql(
        // A QuipuSwap v1 pool: its storage holds both reserves as plain values (dex.reserves reads them all).
        `select row_id, pool, height, tx_hash, supply_a from defi_dex.dex_event where supply_a > 0
          and pool in (select pool from defi_dex.dex_pool where entity = 'quipu_v1') order by row_id desc limit 1`,
      )
    ).rows;
    expect(p && e, 'an open position and an event').to.not.equal(undefined);
    // Closed with shares left, and no close height: both halves of the invariant broken at once.
    await sql('update defi_dex.dex_position set is_closed = true where position = ?', [p.position]);
    await sql('update defi_dex.dex_event set supply_a = -1 where row_id = ?', [e.row_id]);
    try {
      const found = await added();
      const [pool] = (await sql('select update_height from defi_dex.dex_pool where pool = ?', [p.pool])).rows;
      // A closed position no longer counts in its pool's total: that breaks too; the reserve is the storage's no more.
      expect(found.map((v) => [v.check, v.subject, v.height])).to.have.deep.members([
        ['dex.closed', p.position, Number(p.update_height)],
        ['dex.group_total', p.pool, Number(pool.update_height)],
        ['dex.non_negative', e.pool, Number(e.height)],
        ['dex.reserves', e.pool, Number(e.height)],
      ]);
      expect(found.find((v) => v.check === 'dex.non_negative')!.op).to.equal(e.tx_hash);
    } finally {
      await sql('update defi_dex.dex_position set is_closed = false where position = ?', [p.position]);
      await sql('update defi_dex.dex_event set supply_a = ? where row_id = ?', [e.supply_a, e.row_id]);
    }
  });

  it('a farm stake one unit over its counters, and a lending position closed with debt left, are reported', async () => {
    const [f] = (
      await sql(`select position, pool from defi_farm.farm_position where not is_closed order by row_id limit 1`)
    ).rows;
    const [l] = (
      await sql(
        `select position from defi_lending.lend_position where not is_closed and debt > 0 and close_height is null order by row_id limit 1`,
      )
    ).rows;
    expect(f && l, 'an open farm and an open lending position with debt').to.not.equal(undefined);
    await sql('update defi_farm.farm_position set stake_balance = stake_balance + 1 where position = ?', [f.position]);
    await sql(
      'update defi_lending.lend_position set is_closed = true, close_height = update_height, close_time = open_time where position = ?',
      [l.position],
    );
    try {
      expect((await added()).map((v) => [v.check, v.subject])).to.have.deep.members([
        ['farm.holding_ledger', f.position],
        ['farm.group_total', f.pool],
        ['lend.closed', l.position],
      ]);
    } finally {
      await sql('update defi_farm.farm_position set stake_balance = stake_balance - 1 where position = ?', [
        f.position,
      ]);
      await sql(
        'update defi_lending.lend_position set is_closed = false, close_height = null, close_time = null where position = ?',
        [l.position],
      );
    }
  });

  it('the DEX data breaks nothing; what farms and lending break is printed (docs/defi-dex.md)', async () => {
    const counts = new Map<string, number>();
    for (const k of violations) counts.set(k.split(' ')[0], (counts.get(k.split(' ')[0]) ?? 0) + 1);
    console.log(`      baseline violations: ${JSON.stringify(Object.fromEntries(counts))}`);
    expect([...violations].filter((k) => k.startsWith('dex.'))).to.deep.equal([]);
    expect(await added()).to.deep.equal([]);
  });

  it("a concentrated pool's supply_lp off its storage's liquidity is a reserves violation, not a group_total one", async () => {
    const [v3] = (await sql('select pool, supply_lp from defi_dex.dex_pool where marginal_a is not null limit 1')).rows;
    expect(v3, 'a QuipuSwap V3 pool').to.not.equal(undefined);
    await sql('update defi_dex.dex_pool set supply_lp = supply_lp + 1 where pool = ?', [v3.pool]);
    try {
      expect((await added()).map((v) => [v.check, v.subject])).to.deep.equal([['dex.reserves', v3.pool]]);
    } finally {
      await sql('update defi_dex.dex_pool set supply_lp = ? where pool = ?', [v3.supply_lp, v3.pool]);
    }
  });

  it('a farm paying one raw unit more than its schedule released is reported, and only it', async () => {
    const [f] = (
      await sql(
        `select e.pool, p.remaining_rewards,
                sum(case when e.event_type = ${eventType('update', 'farm_event')} then e.reward else 0 end)
                  - sum(case when e.event_type = ${eventType('update', 'farm_event')} then 0 else e.reward end) as room
           from defi_farm.farm_event e join defi_farm.farm_pool p on p.pool = e.pool
          group by e.pool, p.remaining_rewards
         having sum(case when e.event_type = ${eventType('update', 'farm_event')} then e.reward else 0 end) > 0
          order by e.pool limit 1`,
      )
    ).rows;
    expect(f, 'a farm funded through an indexed call').to.not.equal(undefined);
    // Released = funded − remaining: all of what is left of the funding still to pay releases exactly what was
    // paid (no violation); one raw unit more still to pay means one unit was paid that was never released.
    const remaining = (value: unknown) =>
      sql('update defi_farm.farm_pool set remaining_rewards = ? where pool = ?', [value, f.pool]);
    await remaining(String(BigInt(f.room)));
    try {
      expect(await added()).to.deep.equal([]);
      await remaining(String(BigInt(f.room) + 1n));
      expect((await added()).map((v) => [v.check, v.subject])).to.deep.equal([['farm.rewards_paid', f.pool]]);
    } finally {
      await remaining(f.remaining_rewards);
    }
    expect(await added()).to.deep.equal([]);
  });

  it("a trade one raw unit off what its group moved, and an event's reserve one off its storage, are reported", async () => {
    // In a pool alone in its contract (trade_moves) whose family reads its storage (reserves): Dexter-like pools.
    const single = `pool in (select pool from defi_dex.dex_pool p where entity in ('dexter', 'vortex_v1', 'plenty_v1')
      and (select count(*) from defi_dex.dex_pool q where q.contract = p.contract) = 1)`;
    const [trade] = (await sql(`select row_id, pool, tx_hash from defi_dex.dex_trade where ${single} limit 1`)).rows;
    const [event] = (
      await sql(`select row_id, pool, tx_hash from defi_dex.dex_event
                  where event_type = ${eventType('trade')} and ${single}
        order by row_id desc limit 1`)
    ).rows;
    expect(trade && event, 'a trade and an event').to.not.equal(undefined);
    await sql('update defi_dex.dex_trade set quote_volume = quote_volume - 1 where row_id = ?', [trade.row_id]);
    await sql('update defi_dex.dex_event set supply_a = supply_a + 1 where row_id = ?', [event.row_id]);
    try {
      expect((await added()).map((v) => [v.check, v.subject, v.op])).to.have.deep.members([
        ['dex.trade_moves', trade.pool, trade.tx_hash],
        ['dex.reserves', event.pool, event.tx_hash],
      ]);
    } finally {
      await sql('update defi_dex.dex_trade set quote_volume = quote_volume + 1 where row_id = ?', [trade.row_id]);
      await sql('update defi_dex.dex_event set supply_a = supply_a - 1 where row_id = ?', [event.row_id]);
    }
  });

  it('finds no farm or lending violation on this chain', async () => {
    expect((await run()).filter((v) => farmOrLending(v.check))).to.deep.equal([]);
  });

  it('the command wants one family', async () => {
    expect(await main(['check'])).to.equal(2);
    expect(await main(['check', 'defi', 'farm'])).to.equal(2);
  });
});
