import { expect } from 'chai';
import { expectApiError } from '../../support/apiErrors';
import { BACKEND } from '../../support/TestDatabase';
import type { TestInstance } from '../../support/TestInstance';
import { DexFixture, kt1, LP1, POOL1, POOL2, POOL3, TKX, TKY } from '../support/DexFixture';
import { Json, json, q18, rfc, USD } from '../support/DexOracle';
import { startDexInstance } from './dexSetup';

const DEC: Record<string, number> = { tez: 6, [TKX]: 8, [TKY]: 0 };

/** Expected USD value (×10^18) of raw amounts; null when a token has no price. */
function usd(parts: Array<[string, bigint]>): bigint | null {
  let sum = 0n;
  for (const [token, raw] of parts) {
    if (USD[token] === undefined) return null;
    sum += (((raw * 10n ** 18n) / 10n ** BigInt(DEC[token])) * USD[token]) / 10n ** 18n;
  }
  return sum;
}

describe(`DEX API: pools (${BACKEND})`, function () {
  this.timeout(300_000);
  let t: TestInstance;
  let f: DexFixture;

  before(async () => ({ t, f } = await startDexInstance()));
  after(() => t?.close());

  it('/v1/dex lists every pool with its reserves, counters, prices and USD values', async () => {
    const list = (await json(t, '/v1/dex')) as Json[];
    expect(list.map((p) => p.pool)).to.deep.equal(f.pools.map((p) => p.pool));
    for (const [i, row] of f.pools.entries()) {
      const p = list[i];
      const [a, b] = [BigInt(row.supply_a), BigInt(row.supply_b)];
      expect(p).to.include({
        contract: row.contract,
        pair_id: Number(row.pair_id),
        entity: row.entity,
        name: row.name,
        pair: row.pair,
        creator: row.creator,
        num_tokens: 2,
        supply_a: a.toString(),
        supply_b: b.toString(),
        supply_lp: BigInt(row.supply_lp).toString(),
        first_block: Number(row.first_height),
        first_time: rfc(row.first_time as Date),
        last_change_block: Number(row.last_change_height),
        num_trades: Number(row.num_trades),
        num_lps: Number(row.num_lps),
        num_total_lps: Number(row.num_total_lps),
        num_total_users: Number(row.num_total_users),
        fees_bps: '30.00',
        last_trade_time: row.last_trade_time ? rfc(row.last_trade_time as Date) : '0001-01-01T00:00:00Z',
      });
      // price: one whole A in B.
      expect(p.price, row.pool).to.equal(q18(b * 10n ** BigInt(DEC[row.token_a]), a * 10n ** BigInt(DEC[row.token_b])));
      const liquidity = usd([
        [row.token_a, a],
        [row.token_b, b],
      ]);
      expect(p.liquidity_usd, row.pool).to.equal(liquidity === null ? null : q18(liquidity, 10n ** 18n));
      expect(p.price_usd, row.pool).to.equal(USD[row.token_a] === undefined ? null : q18(USD[row.token_a], 10n ** 18n));
      expect(p.tags).to.deep.equal([]);
    }
  });

  it('builds token objects from the token registry, else from the pool row (tez is always XTZ, 6 decimals)', async () => {
    const [p1, p2] = [await json(t, `/v1/dex/${POOL1}`), await json(t, `/v1/dex/${POOL2}`)];
    expect(p1.token_a).to.include({
      token_kind: 'tez',
      token_type: 'native',
      symbol: 'XTZ',
      decimals: 6,
      contract: '',
    });
    expect(p1.token_a).not.to.have.property('ledger');
    expect(p1.token_b).to.include({
      token_kind: 'fa',
      token_type: 'fa1.2',
      symbol: 'TKX',
      name: 'Token X',
      decimals: 8,
      ledger: kt1(1),
      contract: kt1(1),
      token_id: '0',
      logo: 'ipfs://x',
    });
    expect(p1.token_lp).to.include({ token_kind: 'lp', symbol: 'QLP', decimals: 6, ledger: LP1.split('_')[0] });
    // TKY is not in the registry: the symbol comes from the pair name, no decimals are known.
    expect(p2.token_a).to.include({
      token_kind: 'fa',
      token_type: 'fa2',
      symbol: 'TKY',
      decimals: 0,
      token_id: '5',
      id: 0,
      name: '',
    });
    expect(p2.token_lp).to.equal(null);
  });

  it('filters pools with the SDK names (block = first block, entity, contract, pair_id)', async () => {
    const ids = async (q: string) => ((await json(t, `/v1/dex?${q}`)) as Json[]).map((p) => p.pool);
    expect(await ids('block=3')).to.deep.equal([POOL3]);
    expect(await ids('first_block.lt=3')).to.deep.equal([POOL1, POOL2]);
    expect(await ids('entity=quipu_v2')).to.deep.equal([POOL2, POOL3]);
    expect(await ids(`contract=${kt1(4)}&pair_id=2`)).to.deep.equal([POOL3]);
    expect(await ids('order=desc&limit=2')).to.deep.equal([POOL3, POOL2]);
    expect(await ids('offset=1&limit=1')).to.deep.equal([POOL2]);
  });

  it('answers 400 for malformed pool ids and bad parameters, 404 for unknown pools', async () => {
    // The last: a KT1 address with a broken checksum.
    for (const bad of [
      'abc',
      `${kt1(5)}`,
      `${kt1(5)}_x`,
      'KT1_0',
      `${kt1(5)}_-1`,
      `${kt1(5).slice(0, -1)}${kt1(5).endsWith('a') ? 'b' : 'a'}_0`,
    ]) {
      await expectApiError(await t.get(`/v1/dex/${encodeURIComponent(bad)}`), 400, 1301, bad);
      await expectApiError(await t.get(`/v1/dex/${encodeURIComponent(bad)}/events`), 400, 1301, bad);
    }
    const unknown = `${kt1(9)}_0`;
    for (const sub of ['', '/events', '/trades', '/positions', '/ticker', '/candles', '/prices']) {
      const res = await t.get(`/v1/dex/${unknown}${sub}`);
      expect(res.status, sub).to.equal(404);
      expect(((await res.json()) as Json).errors[0].status).to.equal(404);
    }
    for (const q of ['limit=x', 'order=up', 'nosuch=1', 'block.xx=1', 'block=abc', 'offset=-1']) {
      const res = await t.get(`/v1/dex?${q}`);
      expect(res.status, q).to.equal(400);
      expect(((await res.json()) as Json).errors, q).to.have.length(1);
    }
  });
});
