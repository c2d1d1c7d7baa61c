import { expect } from 'chai';
import { BUILTIN_PLUGIN_DIR } from '../../framework/app/TzidxApp';
import { discoverPlugins } from '../../framework/plugins/PluginDiscovery';
import { SandboxChain } from '../../framework/sandbox';
import { indexSandbox } from '../support/IndexHarness';
import { startTestInstance, TestInstance } from '../support/TestInstance';
import { readTable } from '../core-chain/support/tableReader';

const LB_POOL = 'KT1TxqZ8QtKvLu3V3JH7Gx58n7Co8pgtpQU5_0';

describe('defi-dex: USD values from the markets plugin and the pools', function () {
  this.timeout(240_000);
  let t: TestInstance;
  const chain = new SandboxChain({ seed: 'dex-usd', profile: 'tiny', traffic: ['defi-dex:lb'] });
  const pool = async () => (await (await t.get(`/v1/dex/${LB_POOL}`)).json()) as Record<string, unknown>;
  before(async () => {
    t = await startTestInstance({ plugins: discoverPlugins([BUILTIN_PLUGIN_DIR]) });
    chain.bakeTo(40);
    await indexSandbox(t, chain);
  });
  after(() => t?.close());

  it('are null, not 0, while the markets plugin has no XTZ price', async () => {
    const p = await pool();
    expect([p.price_usd, p.liquidity_usd]).to.deep.equal([null, null]);
  });

  it('price the pool from the latest XTZ_USD close and its own reserves', async () => {
    const now = Date.now();
    const candle = (exchange: string, time: number, close: string) => ({
      exchange,
      pair: 'XTZ_USD',
      time: new Date(time),
      open: close,
      high: close,
      low: close,
      close,
    });
    await t.insert('market_candle', [
      candle('kraken', now - 600_000, '0.50'),
      candle('coinbasepro', now - 60_000, '2.00'),
      candle('kraken', now + 3_600_000, '9.00'),
    ]);
    const pools = await readTable(t, 'dex_pool', ['pool', 'supply_a', 'supply_b', 'token_a', 'token_b', 'token_c']);
    const row = pools.find((p) => p.pool === LB_POOL)!;
    const [token] = await readTable(t, 'token', ['decimals'], `token_key=${row.token_a}`);
    // Oracle in floats: tzBTC in tez from its deepest tez pool by tez held (docs/defi-dex.md, USD: LB's, or the
    // Dexter pool the early providers fill), tez at the latest close not after now (2.00).
    const deepest = pools
      .filter((p) => p.token_c === '' && p.token_a === row.token_a && p.token_b === 'tez')
      .reduce((a, b) => (Number(b.supply_b) > Number(a.supply_b) ? b : a));
    const tokenUsd = (Number(deepest.supply_b) / 1e6 / (Number(deepest.supply_a) / 10 ** Number(token.decimals))) * 2;
    const liquidity =
      (Number(row.supply_a) / 10 ** Number(token.decimals)) * tokenUsd + (Number(row.supply_b) / 1e6) * 2;
    const p = await pool();
    expect(Number(p.price_usd)).to.be.closeTo(tokenUsd, tokenUsd * 1e-9);
    expect(Number(p.liquidity_usd)).to.be.closeTo(liquidity, liquidity * 1e-9);
    expect(p.price_usd).to.match(/^\d+\.\d{18}$/);
  });

  it('freeze the USD value of trades and liquidity moves at their block time once a price exists', async () => {
    const candles = [{ time: 1_000, close: '3.00' }];
    await t.insert(
      'market_candle',
      candles.map((c) => ({
        exchange: 'bitstamp',
        pair: 'XTZ_USD',
        time: new Date(c.time),
        open: c.close,
        high: c.close,
        low: c.close,
        close: c.close,
      })),
    );
    const known = await readTable(t, 'market_candle', ['time', 'close'], 'pair=XTZ_USD');
    const tezUsdAt = (time: number): number =>
      Number(
        known.filter((c) => Date.parse(c.time) <= time).sort((a, b) => Date.parse(b.time) - Date.parse(a.time))[0]
          .close,
      );
    const from = chain.headLevel;
    chain.bake(60);
    await indexSandbox(t, chain);
    const trades = await readTable(
      t,
      'dex_trade',
      ['height', 'time', 'quote_volume', 'volume_usd', 'price_usd', 'entity'],
      `pool=${LB_POOL}&height.gt=${from}`,
    );
    expect(trades.length, 'LB trades after the price appeared').to.be.greaterThan(0);
    for (const tr of trades) {
      // LB's quote is tez: the traded tez times the tez price at the block.
      const want = (Number(tr.quote_volume) / 1e6) * tezUsdAt(Date.parse(tr.time));
      expect(Number(tr.volume_usd), tr.height).to.be.closeTo(want, want * 1e-9 + 1e-12);
      expect(tr.price_usd, tr.height).to.match(/^\d+\.\d{18}$/);
    }
    const earlier = await readTable(t, 'dex_trade', ['volume_usd'], `pool=${LB_POOL}&height.lte=${from}`);
    expect(
      earlier.every((tr) => tr.volume_usd === ''),
      'trades before any price stay null',
    ).to.equal(true);
  });

  it("price a token from its pool's own marginal amounts when the pool keeps them (concentrated liquidity), not from the reserves", async () => {
    const [row] = await readTable(t, 'dex_pool', ['token_a'], `pool=${LB_POOL}`);
    const [token] = await readTable(t, 'token', ['decimals'], `token_key=${row.token_a}`);
    // One whole token A for 0.25 tez (B); tez is 2.00 USD now (the candles above).
    await t.app.db
      .writer('defi_dex.dex_pool')
      .where('pool', LB_POOL)
      .update({ marginal_a: (10n ** BigInt(token.decimals)).toString(), marginal_b: '250000' });
    const p = await pool();
    expect([p.price, p.price_usd]).to.deep.equal(['0.250000000000000000', '0.500000000000000000']);
  });
});
