import { expect } from 'chai';
import { decimal, isqrt, scaled } from '../../../plugins/defi-dex/api/Decimal';
import { PoolInfo } from '../../../plugins/defi-dex/api/PoolBook';
import { positionRecord } from '../../../plugins/defi-dex/api/PositionRecords';
import { ticker } from '../../../plugins/defi-dex/api/Ticker';
import { TokenObject } from '../../../plugins/defi-dex/api/TokenBook';
import { UsdPrices } from '../../../plugins/defi-dex/api/UsdPrices';
import { isqrt as oracleSqrt, kt1, tz1 } from '../support/DexFixture';

const POOL = `${kt1(5)}_0`;
const row = {
  row_id: '1', pool: POOL, contract: kt1(5), pair_id: '0', entity: 'quipu_v1', name: 'p', pair: 'XTZ/TKX', token_a: 'tez', token_b: `${kt1(1)}_0`, token_c: null, token_d: null,
  token_lp: null, supply_a: '1000000', supply_b: '4000000', supply_lp: '100', first_height: '1', first_time: '2024-01-01T00:00:00Z', num_tokens: '2',
};
const token = (decimals: number) => ({ decimals, symbol: 'X' }) as TokenObject;

describe('DEX API without USD quotes, and its exact arithmetic', () => {
  const pool = new PoolInfo(row, new Map([['tez', token(6)], [`${kt1(1)}_0`, token(6)]]));
  const usd = new UsdPrices(undefined, new Date());

  it('answers null for every USD value when no UsdQuotes is wired, never 0', async () => {
    const p = await pool.record(usd);
    expect(p).to.include({ price_usd: null, liquidity_usd: null, price: '4.000000000000000000' });
    const position = await positionRecord({ row_id: '2', pool: POOL, owner: tz1(1), shares: '10', shares_minted: '10', shares_burned: '0', shares_sent: '0', shares_received: '0',
      deposited_a: '1', deposited_b: '1', withdrawn_a: '0', withdrawn_b: '0', open_value_usd: '5.000000000000000000', close_value_usd: null, growth_entry: '1.0', is_closed: 'false',
      open_height: '1', open_time: '2024-01-01T00:00:00Z', close_height: null, close_time: null }, pool, usd);
    expect(position).to.include({ value_a: '100000', value_b: '400000', position_value_usd: null, share_value_usd: null, fee_income_usd: null, pnl_usd: null, pnl_bps: null, open_value_usd: '5.000000000000000000' });
    const tk = await ticker(pool, [], undefined, Date.now(), usd);
    expect(tk).to.include({ price_usd: null, liquidity_usd: null, num_trades: 0, ask_price: '4.000000000000000000' });
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
