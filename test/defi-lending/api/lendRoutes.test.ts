import { expect } from 'chai';
import { BUILTIN_PLUGIN_DIR } from '../../../framework/app/TzidxApp';
import { discoverPlugins } from '../../../framework/plugins/PluginDiscovery';
import { SandboxChain } from '../../../framework/sandbox';
import { ctezOvens } from '../../../plugins/defi-lending/adapters/ctez/sim/sandbox';
import { readTable, type CsvRow } from '../../core-chain/support/tableReader';
import { json, type Json } from '../../defi-dex/support/DexOracle';
import { expectOriginatorsAsCreators, managerContents } from '../../support/chainOriginations';
import { indexSandbox } from '../../support/IndexHarness';
import { BACKEND } from '../../support/TestDatabase';
import { startTestInstance, TestInstance } from '../../support/TestInstance';

/**
 * The /v1/lend routes over the sandbox's Yupana-style market indexed by the plugin. Expectations come
 * from the tables read through the tables API (CSV), never from the lending routes' own answers.
 */
/** Long enough for every kind of lending call of the model to occur among the `defi` traffic. */
const LEVELS = 160;

describe(`lending API: /v1/lend routes (${BACKEND})`, function () {
  this.timeout(300_000);
  const chain = new SandboxChain({ seed: 'lend-yupana', profile: 'tiny', traffic: ['defi-lending:yupana'] });
  let t: TestInstance;
  let pools: CsvRow[];
  let events: CsvRow[];
  let positions: CsvRow[];

  before(async () => {
    chain.bakeTo(LEVELS);
    const plugins = discoverPlugins([BUILTIN_PLUGIN_DIR]).filter((p) =>
      ['core-chain', 'defi-lending'].includes(p.manifest.name),
    );
    t = await startTestInstance({ plugins });
    await indexSandbox(t, chain);
    pools = await readTable(t, 'lend_pool', [
      'pool',
      'contract',
      'total_collateral',
      'total_debt',
      'num_deposits',
      'num_borrows',
      'debt_token',
      'collateral_token',
      'first_height',
    ]);
    events = await readTable(t, 'lend_event', [
      'pool',
      'event_type',
      'owner',
      'volume',
      'debt',
      'collateral',
      'signer',
      'sender',
      'receiver',
      'height',
      'tx_hash',
    ]);
    positions = await readTable(t, 'lend_position', ['pool', 'owner', 'balance', 'debt', 'is_closed', 'open_height']);
  });
  after(() => t?.close());

  /** A token object's `contract`: empty for tez. */
  const contractOf = (token: string) => (token === 'tez' ? '' : token.split('_')[0]);
  const ids = (list: Json[]) => list.map((x) => String(x.id));
  const rowIds = (rows: CsvRow[]) => rows.map((r) => r.row_id);

  it("names as every market's creator the account whose operation originated its contract", async () => {
    const list = (await json(t, '/v1/lend')) as Json[];
    expect(list.length).to.equal(pools.length);
    expectOriginatorsAsCreators(chain, list);
  });

  it('lists the markets and gets one by its address, totals and tokens as the pool table has them', async () => {
    expect(pools.length, 'markets indexed').to.be.greaterThan(1);
    const list = (await json(t, '/v1/lend')) as Json[];
    expect(
      list.map((x) => [
        x.pool,
        x.total_collateral,
        x.total_debt,
        x.num_deposits,
        x.num_borrows,
        x.debt_token.contract,
        x.collateral_token.contract,
        x.first_block,
      ]),
    ).to.deep.equal(
      pools.map((p) => [
        p.pool,
        p.total_collateral,
        p.total_debt,
        Number(p.num_deposits),
        Number(p.num_borrows),
        contractOf(p.debt_token),
        contractOf(p.collateral_token),
        Number(p.first_height),
      ]),
    );
    expect(await json(t, `/v1/lend/${pools[0].pool}`)).to.deep.equal(list[0]);
    expect(list[0].debt_token).to.not.have.property('ledger');
  });

  it('lists events, narrowed by market, wallet and filters', async () => {
    expect(new Set(events.map((e) => e.event_type)).size, 'event kinds').to.be.greaterThan(2);
    const pool = pools[0].pool;
    expect(ids(await json(t, '/v1/lend/events?limit=10000'))).to.deep.equal(rowIds(events));
    expect(ids(await json(t, `/v1/lend/${pool}/events?order=desc&limit=10000`))).to.deep.equal(
      rowIds(events.filter((e) => e.pool === pool)).reverse(),
    );
    expect(ids(await json(t, '/v1/lend/events?event_type=borrow&limit=10000'))).to.deep.equal(
      rowIds(events.filter((e) => e.event_type === 'borrow')),
    );
    const mid = Number(events[Math.floor(events.length / 2)].height);
    expect(ids(await json(t, `/v1/lend/events?block.gte=${mid}&limit=10000`))).to.deep.equal(
      rowIds(events.filter((e) => Number(e.height) >= mid)),
    );
    const who = events[0].sender;
    const mine = events.filter((e) => [e.owner, e.signer, e.sender, e.receiver].includes(who));
    expect(ids(await json(t, `/v1/wallets/${who}/lend_events?limit=10000`))).to.deep.equal(rowIds(mine));
    const [first] = (await json(t, '/v1/lend/events?limit=1')) as Json[];
    expect([
      first.event_type,
      first.owner,
      first.volume,
      first.debt,
      first.collateral,
      first.tx_hash,
      first.block,
    ]).to.deep.equal([
      events[0].event_type,
      events[0].owner,
      events[0].volume,
      events[0].debt,
      events[0].collateral,
      events[0].tx_hash,
      Number(events[0].height),
    ]);
  });

  it('lists open positions by default and closed ones too with with_closed', async () => {
    const open = positions.filter((p) => p.is_closed === 'false');
    expect(open.length, 'open positions').to.be.greaterThan(0);
    expect(positions.length - open.length, 'closed positions').to.be.greaterThan(0);
    expect(ids(await json(t, '/v1/lend/positions?limit=10000'))).to.deep.equal(rowIds(open));
    expect(ids(await json(t, '/v1/lend/positions?with_closed=1&limit=10000'))).to.deep.equal(rowIds(positions));
    const closed = positions.find((p) => p.is_closed === 'true')!;
    expect(ids(await json(t, `/v1/lend/${closed.pool}/positions?with_closed=true&is_closed=1`))).to.deep.equal(
      rowIds(positions.filter((p) => p.pool === closed.pool && p.is_closed === 'true')),
    );
    const ownedBy = (o: string) => positions.filter((p) => p.owner === o);
    expect(ids(await json(t, `/v1/wallets/${closed.owner}/lend_positions`))).to.deep.equal(
      rowIds(ownedBy(closed.owner).filter((p) => p.is_closed === 'false')),
    );
    expect(ids(await json(t, `/v1/wallets/${closed.owner}/lend_positions?with_closed=1`))).to.deep.equal(
      rowIds(ownedBy(closed.owner)),
    );
    const [p] = (await json(t, `/v1/lend/${open[0].pool}/positions?owner=${open[0].owner}`)) as Json[];
    expect([p.owner, p.balance, p.debt, p.is_closed]).to.deep.equal([
      open[0].owner,
      open[0].balance,
      open[0].debt,
      false,
    ]);
  });

  it("gives every event and position a stake id: the position row id (Yupana has none), a ctez oven's id", async () => {
    const stakes = await readTable(t, 'lend_position', ['pool', 'owner', 'stake_id']);
    const moved = await readTable(t, 'lend_event', ['pool', 'owner', 'stake_id']);
    // The ctez ovens the chain created (its deployer's first oven, whatever traffic is kept): owner → id.
    const main = ctezOvens(chain.contracts).address;
    const ovens = new Map<string, string>();
    for (const c of managerContents(chain))
      if (c.destination === main && c.parameters?.entrypoint === 'create_oven')
        ovens.set(c.source, c.parameters.value.args[0].int);
    expect(ovens.size, 'ctez ovens').to.be.greaterThan(0);
    expect(stakes.map((p) => p.stake_id)).to.deep.equal(
      stakes.map((p) => (p.pool.startsWith(`${main}_`) ? ovens.get(p.owner) : p.row_id)),
    );
    const idOf = new Map(stakes.map((p) => [`${p.pool}:${p.owner}`, p.stake_id]));
    expect(moved.map((e) => e.stake_id)).to.deep.equal(moved.map((e) => idOf.get(`${e.pool}:${e.owner}`)));
    const served = async (path: string) => ((await json(t, path)) as Json[]).map((x) => x.stake_id);
    expect(await served('/v1/lend/events?limit=10000')).to.deep.equal(moved.map((e) => Number(e.stake_id)));
    const all = stakes.map((p) => Number(p.stake_id));
    expect(await served('/v1/lend/positions?with_closed=1&limit=10000')).to.deep.equal(all);
  });

  it('answers bad ids and parameters with 400 JSON, unknown markets with 404', async () => {
    const cases: Array<[string, number]> = [
      ['/v1/lend/KT1bad_0', 400],
      [`/v1/lend/${pools[0].contract}`, 400],
      ['/v1/lend/KT1bad_0/events', 400],
      ['/v1/lend/KT1bad_0/positions', 400],
      ['/v1/wallets/tz1x/lend_events', 400],
      ['/v1/wallets/tz1x/lend_positions', 400],
      ['/v1/lend/positions?with_closed=maybe', 400],
      ['/v1/lend/events?block=x', 400],
      ['/v1/lend?limit=-1', 400],
      [`/v1/lend/${pools[0].contract}_7`, 404],
      [`/v1/lend/${pools[0].contract}_7/events`, 404],
    ];
    for (const [path, status] of cases) {
      const res = await t.get(path);
      expect(res.status, path).to.equal(status);
      expect(res.headers.get('content-type') ?? '', path).to.match(/json/);
    }
  });
});
