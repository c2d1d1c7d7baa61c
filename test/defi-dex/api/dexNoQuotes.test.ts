import { expect } from 'chai';
import { decimal, isqrt, scaled } from '../../../framework/defi/Decimal';
import { eventRecord } from '../../../plugins/defi-dex/api/EventRecords';
import { PoolInfo } from '../../../plugins/defi-dex/api/PoolBook';
import { positionRecord } from '../../../plugins/defi-dex/api/PositionRecords';
import { ticker } from '../../../plugins/defi-dex/api/Ticker';
import { TokenObject } from '../../../framework/defi/TokenBook';
import { UsdPrices } from '../../../framework/defi/UsdPrices';
import { isqrt as oracleSqrt, kt1, tz1 } from '../support/DexFixture';

const POOL = `${kt1(5)}_0`;
const row = {
  row_id: '1',
  pool: POOL,
  contract: kt1(5),
  pair_id: '0',
  entity: 'quipu_v1',
  name: 'p',
  pair: 'XTZ/TKX',
  token_a: 'tez',
  token_b: `${kt1(1)}_0`,
  token_c: null,
  token_d: null,
  token_lp: null,
  supply_a: '1000000',
  supply_b: '4000000',
  supply_lp: '100',
  first_height: '1',
  first_time: '2024-01-01T00:00:00Z',
  num_tokens: '2',
};
const token = (decimals: number) => ({ decimals, symbol: 'X' }) as TokenObject;

describe('DEX API without USD quotes, and its exact arithmetic', () => {
  const pool = new PoolInfo(
    row,
    new Map([
      ['tez', token(6)],
      [`${kt1(1)}_0`, token(6)],
    ]),
  );
  const usd = new UsdPrices(undefined, new Date());

  it('answers null for every USD value when no UsdQuotes is wired, never 0', async () => {
    const p = await pool.record(usd);
    expect(p).to.include({ price_usd: null, liquidity_usd: null, price: '4.000000000000000000' });
    const position = await positionRecord(
      {
        row_id: '2',
        pool: POOL,
        owner: tz1(1),
        shares: '10',
        shares_minted: '10',
        shares_burned: '0',
        shares_sent: '0',
        shares_received: '0',
        deposited_a: '1',
        deposited_b: '1',
        withdrawn_a: '0',
        withdrawn_b: '0',
        open_value_usd: '5.000000000000000000',
        close_value_usd: null,
        growth_entry: '1.0',
        is_closed: 'false',
        open_height: '1',
        open_time: '2024-01-01T00:00:00Z',
        close_height: null,
        close_time: null,
      },
      pool,
      usd,
    );
    expect(position).to.include({
      value_a: '100000',
      value_b: '400000',
      position_value_usd: null,
      share_value_usd: null,
      fee_income_usd: null,
      pnl_usd: null,
      pnl_bps: null,
      open_value_usd: '5.000000000000000000',
    });
    const tk = await ticker(pool, [], undefined, Date.now(), usd);
    expect(tk).to.include({ price_usd: null, liquidity_usd: null, num_trades: 0, ask_price: '4.000000000000000000' });
  });

  it('pools of three tokens show leg C in pool, event and position records (and no fee income)', async () => {
    const tokenC = `${kt1(2)}_3`;
    const three = new PoolInfo(
      { ...row, num_tokens: '3', token_c: tokenC, supply_c: '900' },
      new Map([
        ['tez', token(6)],
        [`${kt1(1)}_0`, token(6)],
        [tokenC, token(2)],
      ]),
    );
    const p = await three.record(usd);
    expect(p).to.include({ supply_c: '900', num_tokens: 3 });
    expect(p.token_c).to.include({ decimals: 2 });
    expect(p).not.to.have.property('token_d');
    const e = eventRecord(
      {
        row_id: '3',
        pool: POOL,
        event_type: 'deposit',
        volume_a: '1',
        volume_b: '2',
        volume_c: '3',
        volume_d: null,
        volume_lp: '4',
        supply_a: '5',
        supply_b: '6',
        supply_c: '7',
        supply_d: null,
        supply_lp: '8',
        value_usd: null,
        signer: tz1(1),
        sender: tz1(1),
        receiver: tz1(1),
        router: null,
        tx_hash: 'o',
        tx_fee: '10',
        height: '2',
        time: '2024-01-01T00:00:00Z',
      },
      three,
    );
    expect(e).to.include({ volume_c: '3', supply_c: '7', decimals_c: 2, router: '', tx_fee: '10', block: 2 });
    expect(e).not.to.have.any.keys('volume_d', 'supply_d', 'decimals_d');
    const position = await positionRecord(
      {
        row_id: '2',
        pool: POOL,
        owner: tz1(1),
        shares: '50',
        shares_minted: '50',
        shares_burned: '0',
        shares_sent: '0',
        shares_received: '0',
        deposited_a: '1',
        deposited_b: '1',
        deposited_c: '1',
        withdrawn_a: '0',
        withdrawn_b: '0',
        withdrawn_c: '0',
        open_value_usd: null,
        close_value_usd: null,
        growth_entry: '1.0',
        is_closed: 'false',
        open_height: '1',
        open_time: '2024-01-01T00:00:00Z',
        close_height: null,
        close_time: null,
      },
      three,
      usd,
    );
    expect(position).to.include({
      value_a: '500000',
      value_b: '2000000',
      value_c: '450',
      deposited_c: '1',
      fee_income_usd: null,
    });
  });

  it('square roots are exact floors, far beyond float precision', () => {
    for (const n of [0n, 1n, 2n, 3n, 4n, 10n ** 56n * 5n + 12345n, 2n ** 400n - 1n, 2n ** 1100n + 7n]) {
      const r = isqrt(n);
      expect(r, String(n)).to.equal(oracleSqrt(n));
      expect(r * r <= n && (r + 1n) * (r + 1n) > n).to.equal(true);
    }
  });

  it('decimals parse and print exactly, truncating toward zero', () => {
    expect(decimal(scaled('-1.5'), 2)).to.equal('-1.50');
    expect(decimal(scaled('-0.0000001'), 6)).to.equal('0.000000');
    expect(decimal(scaled('123.456789123456789123'))).to.equal('123.456789123456789123');
  });
});
