import { expect } from 'chai';
import { BUILTIN_PLUGIN_DIR } from '../../../framework/app/TzidxApp';
import type { NormalizedOperation } from '../../../framework/chain';
import { discoverPlugins } from '../../../framework/plugins/PluginDiscovery';
import { SandboxChain } from '../../../framework/sandbox';
import { canonical, indexSandbox } from '../../support/IndexHarness';
import { startTestInstance, TestInstance } from '../../support/TestInstance';
import { readTable } from '../../core-chain/support/tableReader';
import { callsTo, leadingInts } from '../support/poolCalls';

const POOL_CONTRACT = 'KT1K4EwTpbvYN9agJdjpyJm4ZZdhpUNKB3F6';
const POOL = `${POOL_CONTRACT}_0`;

/** The sandbox pool's storage: Pair(tez_pool, token_pool, total_supply, …). */
function reserves(storage: unknown): { tez: bigint; token: bigint; lqt: bigint } {
  const [tez, token, lqt] = leadingInts(storage);
  return { tez, token, lqt };
}

describe('defi-dex: QuipuSwap v1 on the sandbox chain', function () {
  this.timeout(240_000);
  const chain = new SandboxChain({ seed: 'dex-quipu', profile: 'tiny', traffic: ['defi-dex:quipuswap'] });
  let t: TestInstance;
  let calls: NormalizedOperation[];
  before(async () => {
    t = await startTestInstance({ plugins: discoverPlugins([BUILTIN_PLUGIN_DIR]) });
    chain.bakeTo(60);
    await indexSandbox(t, chain);
    calls = callsTo(chain, POOL_CONTRACT);
  });
  after(() => t?.close());

  it('finds the bootstrap pool by its entrypoints at its first call and records every call with the storage after it', async () => {
    const [pool] = await readTable(
      t,
      'dex_pool',
      ['first_height', 'entity', 'token_b', 'fees_bps', 'num_trades'],
      `pool=${POOL}`,
    );
    const first = canonical(chain).find((b) => b.operations.some((o) => o.hash === calls[0].hash))!;
    expect([Number(pool.first_height), pool.entity, pool.token_b, Number(pool.fees_bps)]).to.deep.equal([
      first.level,
      'quipu_v1',
      'tez',
      30,
    ]);
    const events = (
      await readTable(t, 'dex_event', ['event_type', 'supply_a', 'supply_b', 'supply_lp', 'tx_hash'], `pool=${POOL}`)
    ).filter((e) => e.event_type !== 'create');
    expect(calls.length, 'pool calls').to.be.greaterThan(3);
    expect(events.map((e) => e.tx_hash)).to.deep.equal(calls.map((c) => c.hash));
    calls.forEach((c, i) => {
      const r = reserves(c.storage);
      expect([events[i].supply_a, events[i].supply_b, events[i].supply_lp], c.hash).to.deep.equal(
        [r.token, r.tez, r.lqt].map(String),
      );
    });
    expect(Number(pool.num_trades)).to.equal(events.filter((e) => e.event_type === 'trade').length);
  });

  it('trades: the token reserve moves by the tokens traded, the tez reserve by the tez traded', async () => {
    const trades = new Map(
      (
        await readTable(t, 'dex_trade', ['side', 'base_volume', 'quote_volume', 'lp_fee', 'tx_hash'], `pool=${POOL}`)
      ).map((r) => [r.tx_hash, r]),
    );
    let prev = reserves(calls[0].storage);
    let checked = 0;
    for (const c of calls.slice(1)) {
      const now = reserves(c.storage);
      const tr = trades.get(c.hash);
      if (tr && c.entrypoint === 'tezToTokenPayment') {
        expect([tr.side, BigInt(tr.quote_volume), BigInt(tr.base_volume)], c.hash).to.deep.equal([
          'buy',
          now.tez - prev.tez,
          prev.token - now.token,
        ]);
        checked++;
      }
      if (tr && c.entrypoint === 'tokenToTezPayment') {
        expect([tr.side, BigInt(tr.base_volume), BigInt(tr.quote_volume)], c.hash).to.deep.equal([
          'sell',
          now.token - prev.token,
          prev.tez - now.tez,
        ]);
        checked++;
      }
      prev = now;
    }
    expect(checked, 'trades compared').to.be.greaterThan(0);
  });

  it('positions: shares minted and burned by each owner follow the total supply changes of their calls', async () => {
    const want = new Map<string, bigint>();
    // The pool is originated empty and first seen at its first call, the deposit that opened it: every
    // liquidity call's change of the total supply, that one's included, is its caller's.
    const liquidity = (c: NormalizedOperation) =>
      c.entrypoint === 'investLiquidity' || c.entrypoint === 'divestLiquidity';
    expect(calls[0].entrypoint, 'the opening call').to.equal('investLiquidity');
    let prev = 0n;
    for (const c of calls) {
      const now = reserves(c.storage).lqt;
      if (liquidity(c)) want.set(c.sender!, (want.get(c.sender!) ?? 0n) + now - prev);
      prev = now;
    }
    const positions = await readTable(t, 'dex_position', ['owner', 'shares'], `pool=${POOL}`);
    expect(want.size, 'liquidity providers').to.be.greaterThan(0);
    const got = new Map(positions.map((p) => [p.owner, BigInt(p.shares)]));
    for (const owner of new Set([...want.keys(), ...got.keys()]))
      expect(got.get(owner) ?? 0n, owner).to.equal(want.get(owner) ?? 0n);
  });
});
