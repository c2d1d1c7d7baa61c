import { expect } from 'chai';
import { BACKEND } from '../../support/TestDatabase';
import type { TestInstance } from '../../support/TestInstance';
import type { DexEventRow, DexTradeRow } from '../../../plugins/defi-dex/tables.generated';
import { DexFixture, POOL1, POOL2, ROUTER, TKX, TKY, WALLETS } from '../support/DexFixture';
import { Json, json, rfc } from '../support/DexOracle';
import { startDexInstance } from './dexSetup';

type Row = DexEventRow | DexTradeRow;
const SYMBOL: Record<string, [string, number]> = { tez: ['XTZ', 6], [TKX]: ['TKX', 8], [TKY]: ['TKY', 0] };
const TOKENS: Record<string, [string, string]> = { [POOL1]: ['tez', TKX], [POOL2]: [TKY, TKX] };

describe(`DEX API: events and trades (${BACKEND})`, function () {
  this.timeout(300_000);
  let t: TestInstance;
  let f: DexFixture;
  /** API ids of the rows, by tx hash (unique per row in the fixture). */
  const ids = new Map<string, number>();

  before(async () => {
    ({ t, f } = await startDexInstance());
    for (const e of (await json(t, '/v1/dex/events?limit=10000')) as Json[]) ids.set(`e${e.tx_hash}`, e.id);
    for (const e of (await json(t, '/v1/dex/trades?limit=10000')) as Json[]) ids.set(`t${e.tx_hash}`, e.id);
  });
  after(() => t?.close());

  const hashes = (list: Json[]) => list.map((r) => r.tx_hash as string);
  const expected = (rows: readonly Row[]) => rows.map((r) => r.tx_hash);

  it('lists every event as the SDK record: raw volumes and reserves as strings, decimals from the tokens, block = height', async () => {
    const list = (await json(t, '/v1/dex/events?limit=10000')) as Json[];
    expect(hashes(list)).to.deep.equal(expected(f.events));
    for (const [i, e] of f.events.entries()) {
      const [a, b] = TOKENS[e.pool];
      expect(list[i]).to.deep.include({
        pool: e.pool,
        contract: e.contract,
        pair_id: Number(e.pair_id),
        entity: e.entity,
        name: `pool ${e.pool}`,
        event_type: e.event_type,
        volume_a: String(e.volume_a),
        volume_b: String(e.volume_b),
        volume_lp: String(e.volume_lp),
        supply_a: String(e.supply_a),
        supply_b: String(e.supply_b),
        supply_lp: String(e.supply_lp),
        decimals_a: SYMBOL[a][1],
        decimals_b: SYMBOL[b][1],
        decimals_lp: e.pool === POOL1 ? 6 : 0,
        value_usd: e.value_usd ?? null,
        signer: e.signer,
        sender: e.sender,
        receiver: e.receiver,
        router: e.router ?? '',
        tx_hash: e.tx_hash,
        tx_fee: String(e.tx_fee),
        block: Number(e.height),
        time: rfc(e.time as Date),
      });
    }
  });

  it('lists every trade with symbols and decimals of base, quote and each fee token', async () => {
    const list = (await json(t, '/v1/dex/trades?limit=10000')) as Json[];
    expect(hashes(list)).to.deep.equal(expected(f.trades));
    for (const [i, tr] of f.trades.entries()) {
      const [a, b] = TOKENS[tr.pool];
      const fee = tr.lp_fee_token === 1 ? b : a;
      expect(list[i]).to.deep.include({
        counter: Number(tr.counter),
        side: tr.side,
        base_volume: String(tr.base_volume),
        quote_volume: String(tr.quote_volume),
        base_symbol: SYMBOL[a][0],
        base_decimals: SYMBOL[a][1],
        quote_symbol: SYMBOL[b][0],
        quote_decimals: SYMBOL[b][1],
        lp_fee: String(tr.lp_fee),
        lp_fee_bps: '30.00',
        lp_fee_symbol: SYMBOL[fee][0],
        lp_fee_decimals: SYMBOL[fee][1],
        dev_fee: null,
        dev_fee_bps: null,
        dev_fee_symbol: '',
        dev_fee_decimals: 0,
        burn: tr.burn === null ? null : String(tr.burn),
        burn_bps: tr.burn_bps ?? null,
        burn_symbol: tr.burn === null ? '' : 'XTZ',
        price_symbol: SYMBOL[b][0],
        price_net: tr.price_net,
        price_delta_bps: '1.25',
        price_impact_bps: '-2.50',
        is_wash_trade: tr.is_wash_trade,
        tx_fee_symbol: 'XTZ',
        tx_fee_decimals: 6,
        block: Number(tr.height),
        time: rfc(tr.time as Date),
        price_usd: null,
        router: tr.router ?? '',
      });
    }
  });

  const cases: Array<[string, (r: Row) => boolean]> = [
    ['event_type=deposit', (r) => (r as DexEventRow).event_type === 'deposit'],
    ['event_type.in=deposit,withdraw', (r) => ['deposit', 'withdraw'].includes((r as DexEventRow).event_type)],
    [`signer=${WALLETS[1]}`, (r) => r.signer === WALLETS[1]],
    [`sender=${WALLETS[4]}`, (r) => r.sender === WALLETS[4]],
    [`receiver.ne=${WALLETS[0]}`, (r) => r.receiver !== WALLETS[0]],
    [`address=${WALLETS[4]}`, (r) => [r.signer, r.sender, r.receiver].includes(WALLETS[4])],
    [`router=${ROUTER}`, (r) => r.router === ROUTER],
    ['block=5', (r) => Number(r.height) === 5],
    ['block.gt=10', (r) => Number(r.height) > 10],
    ['block.rg=3,6', (r) => Number(r.height) >= 3 && Number(r.height) <= 6],
    [`pool=${POOL2}`, (r) => r.pool === POOL2],
  ];

  it('filters events by the SDK fields (event_type, signer, sender, receiver, address, router, block, time, tx_hash)', async () => {
    const cut = new Date(f.now - 5 * 86_400_000);
    const all: Array<[string, (r: Row) => boolean]> = [
      ...cases,
      [`time.gte=${rfc(cut)}`, (r) => (r.time as Date) >= cut],
      [`tx_hash=${f.events[7].tx_hash}`, (r) => r.tx_hash === f.events[7].tx_hash],
    ];
    for (const [q, keep] of all) {
      const want = expected(f.events.filter(keep));
      expect(want.length, `${q} selects something`).to.be.greaterThan(0);
      expect(hashes(await json(t, `/v1/dex/events?limit=10000&${q}`)), q).to.deep.equal(want);
    }
  });

  it('filters trades by side, counter, is_wash_trade and the shared fields', async () => {
    const all: Array<[string, (r: Row) => boolean]> = [
      ...cases.filter(([q]) => !q.startsWith('event_type')),
      ['side=sell', (r) => (r as DexTradeRow).side === 'sell'],
      ['counter.lte=3', (r) => Number((r as DexTradeRow).counter) <= 3],
      ['is_wash_trade=1', (r) => (r as DexTradeRow).is_wash_trade],
      ['is_wash_trade=false&side=buy', (r) => !(r as DexTradeRow).is_wash_trade && (r as DexTradeRow).side === 'buy'],
    ];
    for (const [q, keep] of all) {
      const want = expected(f.trades.filter(keep));
      expect(want.length, `${q} selects something`).to.be.greaterThan(0);
      expect(hashes(await json(t, `/v1/dex/trades?limit=10000&${q}`)), q).to.deep.equal(want);
    }
  });

  it('pages by limit, offset, cursor (row id) and order', async () => {
    const all = expected(f.events);
    const idOf = (h: string) => ids.get(`e${h}`)!;
    expect(hashes(await json(t, '/v1/dex/events'))).to.deep.equal(all.slice(0, 100));
    expect(hashes(await json(t, '/v1/dex/events?limit=7'))).to.deep.equal(all.slice(0, 7));
    expect(hashes(await json(t, '/v1/dex/events?limit=7&offset=5'))).to.deep.equal(all.slice(5, 12));
    expect(hashes(await json(t, `/v1/dex/events?limit=7&cursor=${idOf(all[9])}`))).to.deep.equal(all.slice(10, 17));
    expect(hashes(await json(t, `/v1/dex/events?limit=4&order=desc&cursor=${idOf(all[9])}`))).to.deep.equal(
      all.slice(5, 9).reverse(),
    );
    expect(hashes(await json(t, '/v1/dex/events?limit=3&order=desc&offset=1'))).to.deep.equal(
      all.slice(-4, -1).reverse(),
    );
    expect(await json(t, '/v1/dex/events?limit=0')).to.deep.equal([]);
    expect(hashes(await json(t, '/v1/dex/events?limit=20000'))).to.deep.equal(all);
  });

  it("lists a pool's events and trades, and a wallet's (any of signer, sender, receiver)", async () => {
    expect(hashes(await json(t, `/v1/dex/${POOL2}/events?limit=10000`))).to.deep.equal(
      expected(f.events.filter((r) => r.pool === POOL2)),
    );
    expect(hashes(await json(t, `/v1/dex/${POOL1}/trades?limit=10000&side=buy`))).to.deep.equal(
      expected(f.trades.filter((r) => r.pool === POOL1 && r.side === 'buy')),
    );
    for (const w of WALLETS) {
      const mine = (r: Row) => [r.signer, r.sender, r.receiver].includes(w);
      expect(hashes(await json(t, `/v1/wallets/${w}/dex_events?limit=10000`)), w).to.deep.equal(
        expected(f.events.filter(mine)),
      );
      expect(hashes(await json(t, `/v1/wallets/${w}/dex_trades?limit=10000&order=desc`)), w).to.deep.equal(
        expected(f.trades.filter(mine)).reverse(),
      );
    }
    // Wallet lists take the same filters: here the wallet's events signed by another account.
    const party = (r: Row, w: string) => [r.signer, r.sender, r.receiver].includes(w);
    const want = expected(f.events.filter((r) => party(r, WALLETS[4]) && r.signer === WALLETS[2]));
    expect(want.length).to.be.greaterThan(0);
    expect(
      hashes(await json(t, `/v1/wallets/${WALLETS[4]}/dex_events?limit=10000&signer=${WALLETS[2]}`)),
    ).to.deep.equal(want);
  });

  it('answers 400 with a JSON error for bad list parameters and wallet addresses', async () => {
    for (const q of [
      'limit=-1',
      'limit=abc',
      'offset=x',
      'cursor=abc',
      'order=sideways',
      'nosuch=1',
      'block.foo=1',
      'block=abc',
      'time=yesterday-ish',
      'is_wash_trade=maybe',
      'block.rg=1',
      'signer=tz1bad',
    ]) {
      for (const path of ['/v1/dex/events', '/v1/dex/trades', `/v1/dex/${POOL1}/events`]) {
        const res = await t.get(`${path}?${q}`);
        expect(res.status, `${path}?${q}`).to.equal(400);
        expect(((await res.json()) as Json).errors, q).to.have.length(1);
      }
    }
    const res = await t.get('/v1/wallets/tz1nope/dex_events');
    expect(res.status).to.equal(400);
  });
});
