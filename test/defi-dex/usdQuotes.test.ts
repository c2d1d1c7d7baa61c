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
  const pool = async () => (await (await t.get(`/v1/dex/${LB_POOL}`)).json()) as Record<string, unknown>;
  before(async () => {
    t = await startTestInstance({ plugins: discoverPlugins([BUILTIN_PLUGIN_DIR]) });
    const chain = new SandboxChain({ seed: 'dex-usd', profile: 'tiny' });
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
    const candle = (exchange: string, time: number, close: string) => ({ exchange, pair: 'XTZ_USD', time: new Date(time), open: close, high: close, low: close, close });
    await t.insert('market_candle', [candle('kraken', now - 600_000, '0.50'), candle('coinbasepro', now - 60_000, '2.00'), candle('kraken', now + 3_600_000, '9.00')]);
    const [row] = await readTable(t, 'dex_pool', ['supply_a', 'supply_b', 'token_a'], `pool=${LB_POOL}`);
    const [token] = await readTable(t, 'token', ['decimals'], `token_key=${row.token_a}`);
    // Oracle in floats: tzBTC in tez from LB's reserves, tez at the latest close not after now (2.00).
    const tokenUsd = (Number(row.supply_b) / 1e6 / (Number(row.supply_a) / 10 ** Number(token.decimals))) * 2;
    const liquidity = (Number(row.supply_a) / 10 ** Number(token.decimals)) * tokenUsd + (Number(row.supply_b) / 1e6) * 2;
    const p = await pool();
    expect(Number(p.price_usd)).to.be.closeTo(tokenUsd, tokenUsd * 1e-9);
    expect(Number(p.liquidity_usd)).to.be.closeTo(liquidity, liquidity * 1e-9);
    expect(p.price_usd).to.match(/^\d+\.\d{18}$/);
  });
});
