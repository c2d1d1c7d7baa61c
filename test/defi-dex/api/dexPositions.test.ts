import { expect } from 'chai';
import { BACKEND } from '../../support/TestDatabase';
import type { TestInstance } from '../../support/TestInstance';
import type { DexPositionRow } from '../../../plugins/defi-dex/tables.generated';
import { DexFixture, isqrt, POOL1, POOL2, WALLETS } from '../support/DexFixture';
import { cut, Json, json, q18, rfc } from '../support/DexOracle';
import { startDexInstance } from './dexSetup';

const E18 = 10n ** 18n;
/** USD ×10^18 of raw amounts of POOL1's tokens (1 tez = 2 USD, 6 decimals; 1 TKX = 1 USD, 8 decimals). */
const usd1 = (a: bigint, b: bigint): bigint => (a * 2n * E18) / 10n ** 6n + (b * E18) / 10n ** 8n;
const scaled = (text: string): bigint => {
  const [i, f = ''] = text.replace('-', '').split('.');
  const v = BigInt(i) * E18 + BigInt(f.padEnd(18, '0').slice(0, 18));
  return text.startsWith('-') ? -v : v;
};

describe(`DEX API: positions (${BACKEND})`, function () {
  this.timeout(300_000);
  let t: TestInstance;
  let f: DexFixture;

  before(async () => ({ t, f } = await startDexInstance()));
  after(() => t?.close());

  const owners = (list: Json[]) => list.map((p) => `${p.pool}:${p.owner}`);
  const want = (keep: (p: DexPositionRow) => boolean) => f.positions.filter(keep).map((p) => p.position);

  it('lists open positions by default, closed ones too with with_closed', async () => {
    expect(owners(await json(t, '/v1/dex/positions'))).to.deep.equal(want((p) => !p.is_closed));
    expect(owners(await json(t, '/v1/dex/positions?with_closed=1'))).to.deep.equal(want(() => true));
    expect(owners(await json(t, '/v1/dex/positions?with_closed=true&is_closed=1'))).to.deep.equal(
      want((p) => p.is_closed),
    );
    expect(owners(await json(t, `/v1/dex/${POOL1}/positions?with_closed=1&order=desc`))).to.deep.equal(
      want((p) => p.pool === POOL1).reverse(),
    );
    expect(owners(await json(t, `/v1/wallets/${WALLETS[0]}/dex_positions`))).to.deep.equal(
      want((p) => p.owner === WALLETS[0]),
    );
    expect(owners(await json(t, `/v1/wallets/${WALLETS[3]}/dex_positions`))).to.deep.equal([]);
    expect(owners(await json(t, `/v1/wallets/${WALLETS[3]}/dex_positions?with_closed=1`))).to.deep.equal(
      want((p) => p.owner === WALLETS[3]),
    );
  });

  it('filters positions by owner, open_block and close_block', async () => {
    const cases: Array<[string, (p: DexPositionRow) => boolean]> = [
      [`owner=${WALLETS[1]}`, (p) => p.owner === WALLETS[1] && !p.is_closed],
      ['open_block.gte=4&with_closed=1', (p) => Number(p.open_height) >= 4],
      ['close_block=6&with_closed=1', (p) => p.close_height === 6],
      [`open_time.lt=${rfc(f.now)}&pool=${POOL2}`, (p) => p.pool === POOL2],
    ];
    for (const [q, keep] of cases) expect(owners(await json(t, `/v1/dex/positions?${q}`)), q).to.deep.equal(want(keep));
    for (const q of ['with_closed=maybe', 'open_block=x', 'owner=tz1x', 'limit=-3'])
      expect((await t.get(`/v1/dex/positions?${q}`)).status, q).to.equal(400);
  });

  it('values each position: value_x = shares·supply_x/total_shares, USD at current prices, pnl and fee income', async () => {
    const list = (await json(t, '/v1/dex/positions?with_closed=1')) as Json[];
    const pool1 = f.pools.find((p) => p.pool === POOL1)!;
    const [A, B, S] = [BigInt(pool1.supply_a), BigInt(pool1.supply_b), BigInt(pool1.supply_lp)];
    const root = isqrt(A * B * E18 * E18);
    for (const [i, row] of f.positions.entries()) {
      const p = list[i];
      const shares = BigInt(row.shares);
      expect(p).to.deep.include({
        owner: row.owner,
        shares: String(shares),
        shares_minted: String(row.shares_minted),
        shares_burned: String(row.shares_burned),
        deposited_a: String(row.deposited_a),
        withdrawn_b: String(row.withdrawn_b),
        is_closed: row.is_closed,
        open_block: Number(row.open_height),
        open_time: rfc(row.open_time as Date),
        open_value_usd: row.open_value_usd,
      });
      if (row.is_closed)
        expect(p).to.include({ close_block: Number(row.close_height), close_time: rfc(row.close_time as Date) });
      else expect(p).not.to.have.any.keys('close_block', 'close_time');
      if (row.pool === POOL2) {
        // TKY has no price: every USD value that needs it is null.
        expect(p).to.include({
          position_value_usd: null,
          share_value_usd: null,
          fee_income_usd: null,
          pnl_usd: null,
          pnl_bps: null,
          decimals_a: 0,
          decimals_b: 8,
          decimals_lp: 0,
        });
        continue;
      }
      const [va, vb] = [(shares * A) / S, (shares * B) / S];
      expect(p).to.include({
        total_shares: String(S),
        value_a: String(va),
        value_b: String(vb),
        decimals_a: 6,
        decimals_b: 8,
        decimals_lp: 6,
      });
      const position = usd1(va, vb);
      expect(p.position_value_usd, row.position).to.equal(q18(position, E18));
      expect(p.share_value_usd).to.equal(q18(usd1(A, B) * 10n ** 6n, S * E18));
      const open = row.open_value_usd === null ? null : scaled(row.open_value_usd as string);
      const close = row.close_value_usd !== null ? scaled(row.close_value_usd as string) : 0n;
      const pnl = open === null ? null : position + close - open;
      expect(p.pnl_usd, row.position).to.equal(pnl === null ? null : q18(pnl, E18));
      expect(p.pnl_bps, row.position).to.equal(pnl === null ? null : cut(q18(pnl * 10_000n, open!), 2));
      if (row.growth_entry === null) {
        expect(p.fee_income_usd).to.equal(null);
        continue;
      }
      const growth = root / S - scaled(row.growth_entry as string);
      const fee = usd1((shares * growth * A) / root, (shares * growth * B) / root);
      expect(p.fee_income_usd, row.position).to.equal(q18(fee, E18));
      expect(p.fee_income_bps, row.position).to.equal(cut(q18(fee * 10_000n, open!), 2));
    }
    // The fixture's first owner entered at 95% of today's growth: real income; the second at today's: none.
    expect(Number(list[0].fee_income_usd)).to.be.greaterThan(0);
    expect(list[1].fee_income_usd).to.equal('0.000000000000000000');
    expect(list[3].pnl_usd).to.equal('-10.000000000000000000');
  });
});
