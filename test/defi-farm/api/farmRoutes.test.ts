import { expect } from 'chai';
import { BUILTIN_PLUGIN_DIR } from '../../../framework/app/TzidxApp';
import { discoverPlugins } from '../../../framework/plugins/PluginDiscovery';
import { SandboxChain } from '../../../framework/sandbox';
import { readTable, type CsvRow } from '../../core-chain/support/tableReader';
import { json, type Json } from '../../defi-dex/support/DexOracle';
import { expectOriginatorsAsCreators } from '../../support/chainOriginations';
import { indexSandbox } from '../../support/IndexHarness';
import { BACKEND } from '../../support/TestDatabase';
import { startTestInstance, TestInstance } from '../../support/TestInstance';

/**
 * The /v1/farm routes over the sandbox's farms (Plenty, QuipuSwap) indexed by the plugin. Expectations come from the
 * tables read through the tables API (CSV), never from the farm routes' own answers.
 */
describe(`farm API: /v1/farm routes (${BACKEND})`, function () {
  this.timeout(300_000);
  // Both farm protocols, only their traffic: several farms with every kind of call.
  const chain = new SandboxChain({
    seed: 'farm-routes',
    profile: 'tiny',
    traffic: ['defi-farm:plenty', 'defi-farm:quipuswap'],
  });
  let t: TestInstance;
  let farms: CsvRow[];
  let events: CsvRow[];
  let positions: CsvRow[];

  before(async () => {
    chain.bakeTo(150);
    const plugins = discoverPlugins([BUILTIN_PLUGIN_DIR]).filter((p) =>
      ['core-chain', 'defi-farm'].includes(p.manifest.name),
    );
    t = await startTestInstance({ plugins });
    await indexSandbox(t, chain);
    farms = await readTable(t, 'farm_pool', [
      'pool',
      'contract',
      'total_stake',
      'remaining_rewards',
      'num_positions',
      'stake_token',
      'reward_token',
      'first_height',
    ]);
    events = await readTable(t, 'farm_event', [
      'pool',
      'event_type',
      'volume',
      'reward',
      'signer',
      'sender',
      'receiver',
      'height',
      'tx_hash',
    ]);
    positions = await readTable(t, 'farm_position', ['pool', 'owner', 'stake_balance', 'is_closed', 'open_height']);
  });
  after(() => t?.close());

  const ids = (list: Json[]) => list.map((x) => String(x.id));
  const rowIds = (rows: CsvRow[]) => rows.map((r) => r.row_id);

  it("names as every farm's creator the account whose operation originated its contract", async () => {
    const list = (await json(t, '/v1/farm')) as Json[];
    expect(list.length).to.be.greaterThan(1);
    expectOriginatorsAsCreators(chain, list);
  });

  it('lists the farms and gets one by its address, totals and tokens as the farm table has them', async () => {
    expect(farms.length, 'farms indexed').to.be.greaterThan(1);
    const list = (await json(t, '/v1/farm')) as Json[];
    expect(
      list.map((x) => [
        x.pool,
        x.total_stake,
        x.num_positions,
        x.stake_token.contract,
        x.reward_token.contract,
        x.first_block,
      ]),
    ).to.deep.equal(
      farms.map((f) => [
        f.pool,
        f.total_stake,
        Number(f.num_positions),
        f.stake_token.split('_')[0],
        f.reward_token.split('_')[0],
        Number(f.first_height),
      ]),
    );
    expect(await json(t, `/v1/farm/${farms[0].pool}`)).to.deep.equal(list[0]);
    expect(list[0].stake_token).to.not.have.property('ledger');
  });

  it('gives every event and position a stake id: Plenty lots, else the position row id; 0 on updates', async () => {
    const farmRows = await readTable(t, 'farm_pool', ['pool', 'entity']);
    const lots = new Set(farmRows.filter((f) => f.entity === 'plenty').map((f) => f.pool));
    const stakes = await readTable(t, 'farm_position', ['pool', 'owner', 'stake_id']);
    const moved = await readTable(t, 'farm_event', ['pool', 'event_type', 'sender', 'stake_id']);
    expect(
      [...stakes, ...moved].filter((r) => !/^\d+$/.test(r.stake_id)),
      'rows without a stake id',
    ).to.deep.equal([]);
    const plain = stakes.filter((p) => !lots.has(p.pool));
    expect(plain.length, 'positions of farms without lots').to.be.greaterThan(0);
    expect(plain.map((p) => p.stake_id)).to.deep.equal(rowIds(plain));
    const updates = moved.filter((e) => e.event_type === 'update');
    expect(updates.length, 'farm updates').to.be.greaterThan(0);
    expect(updates.map((e) => e.stake_id)).to.deep.equal(updates.map(() => '0'));
    // QuipuSwap's owner is the caller: each of its events repeats the caller's position id.
    const idOf = new Map(stakes.map((p) => [`${p.pool}:${p.owner}`, p.stake_id]));
    const own = moved.filter((e) => !lots.has(e.pool) && e.event_type !== 'update');
    expect(own.map((e) => e.stake_id)).to.deep.equal(own.map((e) => idOf.get(`${e.pool}:${e.sender}`)));
    const served = async (path: string) => ((await json(t, path)) as Json[]).map((x) => x.stake_id);
    expect(await served('/v1/farm/events?limit=10000')).to.deep.equal(moved.map((e) => Number(e.stake_id)));
    const all = stakes.map((p) => Number(p.stake_id));
    expect(await served('/v1/farm/positions?with_closed=1&limit=10000')).to.deep.equal(all);
  });

  it('lists events, narrowed by farm, wallet and filters', async () => {
    expect(new Set(events.map((e) => e.event_type)).size, 'event kinds').to.be.greaterThan(1);
    const pool = farms[0].pool;
    expect(ids(await json(t, '/v1/farm/events?limit=10000'))).to.deep.equal(rowIds(events));
    expect(ids(await json(t, `/v1/farm/${pool}/events?order=desc&limit=10000`))).to.deep.equal(
      rowIds(events.filter((e) => e.pool === pool)).reverse(),
    );
    expect(ids(await json(t, '/v1/farm/events?event_type=claim&limit=10000'))).to.deep.equal(
      rowIds(events.filter((e) => e.event_type === 'claim')),
    );
    const mid = Number(events[Math.floor(events.length / 2)].height);
    expect(ids(await json(t, `/v1/farm/events?block.gte=${mid}&limit=10000`))).to.deep.equal(
      rowIds(events.filter((e) => Number(e.height) >= mid)),
    );
    const who = events[0].sender;
    const mine = events.filter((e) => [e.signer, e.sender, e.receiver].includes(who));
    expect(ids(await json(t, `/v1/wallets/${who}/farm_events?limit=10000`))).to.deep.equal(rowIds(mine));
    const [first] = (await json(t, '/v1/farm/events?limit=1')) as Json[];
    expect([first.event_type, first.volume, first.reward, first.tx_hash, first.block]).to.deep.equal([
      events[0].event_type,
      events[0].volume,
      events[0].reward,
      events[0].tx_hash,
      Number(events[0].height),
    ]);
  });

  it('lists open positions by default and closed ones too with with_closed', async () => {
    const open = positions.filter((p) => p.is_closed === 'false');
    expect(open.length, 'open positions').to.be.greaterThan(0);
    expect(positions.length - open.length, 'closed positions').to.be.greaterThan(0);
    expect(ids(await json(t, '/v1/farm/positions'))).to.deep.equal(rowIds(open));
    expect(ids(await json(t, '/v1/farm/positions?with_closed=1'))).to.deep.equal(rowIds(positions));
    expect(ids(await json(t, `/v1/farm/${farms[0].pool}/positions?with_closed=true&is_closed=1`))).to.deep.equal(
      rowIds(positions.filter((p) => p.pool === farms[0].pool && p.is_closed === 'true')),
    );
    const closedOwner = positions.find((p) => p.is_closed === 'true')!.owner;
    const ownedBy = (o: string) => positions.filter((p) => p.owner === o);
    expect(ids(await json(t, `/v1/wallets/${closedOwner}/farm_positions`))).to.deep.equal(
      rowIds(ownedBy(closedOwner).filter((p) => p.is_closed === 'false')),
    );
    expect(ids(await json(t, `/v1/wallets/${closedOwner}/farm_positions?with_closed=1`))).to.deep.equal(
      rowIds(ownedBy(closedOwner)),
    );
    const [p] = (await json(t, `/v1/farm/positions?owner=${open[0].owner}`)) as Json[];
    expect([p.owner, p.stake_balance, p.is_closed, p.total_stake]).to.deep.equal([
      open[0].owner,
      open[0].stake_balance,
      false,
      farms.find((f) => f.pool === open[0].pool)!.total_stake,
    ]);
  });

  it('answers bad ids and parameters with 400 JSON, unknown farms with 404', async () => {
    const unknown = `${farms[0].contract.slice(0, -1)}${farms[0].contract.endsWith('a') ? 'b' : 'a'}_0`;
    const cases: Array<[string, number]> = [
      ['/v1/farm/KT1bad_0', 400],
      [`/v1/farm/${farms[0].contract}`, 400],
      ['/v1/farm/KT1bad_0/events', 400],
      ['/v1/wallets/tz1x/farm_events', 400],
      ['/v1/wallets/tz1x/farm_positions', 400],
      ['/v1/farm/positions?with_closed=maybe', 400],
      ['/v1/farm/events?block=x', 400],
      ['/v1/farm?limit=-1', 400],
      [`/v1/farm/${farms[0].contract}_7`, 404],
    ];
    for (const [path, status] of cases) {
      const res = await t.get(path);
      expect(res.status, path).to.equal(status);
      expect(res.headers.get('content-type') ?? '', path).to.match(/json/);
    }
    expect([400, 404]).to.include((await t.get(`/v1/farm/${unknown}`)).status);
  });
});
