import { expect } from 'chai';
import { BUILTIN_PLUGIN_DIR } from '../../../framework/app/TzidxApp';
import { discoverPlugins } from '../../../framework/plugins/PluginDiscovery';
import { SandboxChain } from '../../../framework/sandbox';
import { readTable, type CsvRow } from '../../core-chain/support/tableReader';
import { json, type Json } from '../../defi-dex/support/DexOracle';
import { indexSandbox } from '../../support/IndexHarness';
import { BACKEND } from '../../support/TestDatabase';
import { startTestInstance, TestInstance } from '../../support/TestInstance';

const TEZ_USD = 2;

/**
 * USD values of the farm and lending records (read time, as the DEX's): the Plenty farm pays ctez and
 * stakes an LP token, which has no tez pool, the Youves pool saves kUSD; the Yupana markets lend kUSD, tzBTC and
 * ctez, the ctez ovens hold tez, which have (the DEX's
 * early providers open QuipuSwap's kUSD/tez and Dexter's tzBTC/tez in every chain; the traffic, Plenty's ctez/tez
 * stable pool). Oracle: the raw amount × the token's tez price from the dex_pool reserves
 * (deepest two-token tez pool, decimals from the token table) × the XTZ_USD close the test inserts;
 * null where a token has no tez pool, and everywhere before any XTZ price exists.
 */
describe(`farm and lending API: USD values (${BACKEND})`, function () {
  this.timeout(300_000);
  const chain = new SandboxChain({
    seed: 'farm-lend-usd',
    profile: 'tiny',
    traffic: ['defi-dex:plenty-stable', 'defi-farm:plenty', 'defi-lending:yupana'],
  });
  let t: TestInstance;
  /** USD per raw unit of a token, null without a tez pool. */
  let perRaw: (token: string) => number | null;

  before(async () => {
    chain.bakeTo(60);
    const plugins = discoverPlugins([BUILTIN_PLUGIN_DIR]).filter((p) =>
      ['core-chain', 'metadata', 'markets', 'defi-dex', 'defi-farm', 'defi-lending'].includes(p.manifest.name),
    );
    t = await startTestInstance({ plugins });
    await indexSandbox(t, chain);
    const pools = await readTable(t, 'dex_pool', ['token_a', 'token_b', 'token_c', 'supply_a', 'supply_b']);
    const decimals = new Map(
      (await readTable(t, 'token', ['token_key', 'decimals'])).map((r) => [r.token_key, Number(r.decimals || 0)]),
    );
    perRaw = (token) => {
      if (token === 'tez') return TEZ_USD / 1e6;
      const legs = pools
        .filter(
          (p) => p.token_c === '' && [p.token_a, p.token_b].includes(token) && [p.token_a, p.token_b].includes('tez'),
        )
        .map((p) =>
          p.token_a === token
            ? { tok: Number(p.supply_a), tez: Number(p.supply_b) }
            : { tok: Number(p.supply_b), tez: Number(p.supply_a) },
        );
      if (legs.length === 0) return null;
      const deepest = legs.reduce((a, b) => (b.tez > a.tez ? b : a));
      const unitInTez = deepest.tez / 1e6 / (deepest.tok / 10 ** (decimals.get(token) ?? 0));
      return (unitInTez * TEZ_USD) / 10 ** (decimals.get(token) ?? 0);
    };
  });
  after(() => t?.close());

  /** Checks a USD field against raw × price; returns whether it was priced. */
  const check = (field: unknown, token: string, raw: unknown, label: string): boolean => {
    const price = perRaw(token);
    if (price === null || raw === null || raw === undefined) {
      expect(field, label).to.equal(null);
      return false;
    }
    const want = Number(raw) * price;
    expect(field, label).to.match(/^\d+\.\d{18}$/);
    expect(Number(field), label).to.be.closeTo(want, want * 1e-9 + 1e-12);
    return true;
  };
  const usdKeys = (x: Json) => Object.keys(x).filter((k) => k.endsWith('_usd'));

  it('are null, never 0, while there is no XTZ price', async () => {
    const lists = ['/v1/farm', '/v1/farm/positions?with_closed=1', '/v1/lend', '/v1/lend/positions?with_closed=1'];
    for (const path of lists) {
      const list = (await json(t, path)) as Json[];
      expect(list.length, path).to.be.greaterThan(0);
      for (const x of list) for (const k of usdKeys(x)) expect(x[k], `${path} ${k}`).to.equal(null);
    }
  });

  describe('with an XTZ price', () => {
    let farms: CsvRow[];
    before(async () => {
      const close = String(TEZ_USD);
      await t.insert('market_candle', [
        {
          exchange: 'kraken',
          pair: 'XTZ_USD',
          time: new Date(Date.now() - 60_000),
          open: close,
          high: close,
          low: close,
          close,
        },
      ]);
      farms = await readTable(t, 'farm_pool', [
        'pool',
        'stake_token',
        'reward_token',
        'total_stake',
        'remaining_rewards',
      ]);
    });

    it('values farms and farm positions: stake at the stake token price, rewards at the reward token price', async () => {
      const priced = new Set<string>();
      const list = (await json(t, '/v1/farm')) as Json[];
      expect(list.map((f) => f.pool)).to.deep.equal(farms.map((f) => f.pool));
      for (const [i, f] of farms.entries()) {
        if (check(list[i].stake_value_usd, f.stake_token, f.total_stake, `${f.pool} stake`)) priced.add('stake');
        if (check(list[i].rewards_value_usd, f.reward_token, f.remaining_rewards || null, `${f.pool} rewards`))
          priced.add('rewards');
        expect(await json(t, `/v1/farm/${f.pool}`)).to.deep.equal(list[i]);
      }
      const rows = await readTable(t, 'farm_position', ['pool', 'stake_balance', 'rewards_claimed', 'rewards_pending']);
      const positions = (await json(t, '/v1/farm/positions?with_closed=1&limit=10000')) as Json[];
      expect(positions.length).to.equal(rows.length);
      for (const [i, r] of rows.entries()) {
        const farm = farms.find((f) => f.pool === r.pool)!;
        if (check(positions[i].value_usd, farm.stake_token, r.stake_balance, `position ${i} value`))
          priced.add('value');
        if (check(positions[i].claimed_usd, farm.reward_token, r.rewards_claimed, `position ${i} claimed`))
          priced.add('claimed');
        // Pending as the API brings it to the farm's index (the sandbox tests check it against the contracts).
        if (
          check(
            positions[i].pending_usd,
            farm.reward_token,
            (positions[i].rewards_pending as string | null) ?? null,
            `position ${i} pending`,
          )
        )
          priced.add('pending');
      }
      // The Plenty LP stake token has no tez pool (its values are null, checked above); the ctez rewards and the kUSD
      // the Youves pool's deployer deposited (the chain's launch, whatever traffic is kept) have one.
      expect([...priced].sort()).to.include.members(['claimed', 'stake', 'value']);
    });

    it('values lending markets and positions: collateral and balance at the collateral price, debt and interest at the debt price', async () => {
      const pools = await readTable(t, 'lend_pool', [
        'pool',
        'collateral_token',
        'debt_token',
        'total_collateral',
        'total_debt',
      ]);
      const list = (await json(t, '/v1/lend')) as Json[];
      expect(list.map((p) => p.pool)).to.deep.equal(pools.map((p) => p.pool));
      const priced: boolean[] = [];
      for (const [i, p] of pools.entries()) {
        priced.push(
          check(list[i].collateral_value_usd, p.collateral_token, p.total_collateral, `${p.pool} collateral`),
        );
        check(list[i].debt_value_usd, p.debt_token, p.total_debt, `${p.pool} debt`);
      }
      // Every market's token has a tez pool (the ctez ovens' collateral is tez); a token with none (null values) is the
      // farm's LP stake above.
      expect(priced, 'every market priced (kUSD, tzBTC, ctez; the ovens)').to.have.length(4).and.not.include(false);
      const rows = await readTable(t, 'lend_position', ['pool', 'balance', 'interest_pending']);
      const positions = (await json(t, '/v1/lend/positions?with_closed=1&limit=10000')) as Json[];
      expect(positions.length).to.equal(rows.length);
      for (const [i, r] of rows.entries()) {
        const pool = pools.find((p) => p.pool === r.pool)!;
        check(positions[i].position_value_usd, pool.collateral_token, r.balance, `position ${i} value`);
        // Pending interest accrues at read time (the record's own raw amount, not the row's last stored one).
        const pending = positions[i].interest_pending || null;
        check(positions[i].interest_pending_usd, pool.debt_token, pending, `position ${i} interest`);
      }
    });
  });
});
