import { expect } from 'chai';
import { BUILTIN_PLUGIN_DIR } from '../../../framework/app/TzidxApp';
import type { NormalizedOperation } from '../../../framework/chain';
import { discoverPlugins } from '../../../framework/plugins/PluginDiscovery';
import { SandboxChain } from '../../../framework/sandbox';
import { canonical, indexSandbox } from '../../support/IndexHarness';
import { startTestInstance, TestInstance } from '../../support/TestInstance';
import { readTable } from '../../core-chain/support/tableReader';
import { callsTo, ledgerChanges, leadingInts } from '../support/poolCalls';

const CONTRACT = 'KT1Wjadao8AXkwNQmjstbPGtLd1ZrUyQEDX7';
const POOL = `${CONTRACT}_0`;
const KUSD = 'KT1K9gCRgaLRFKTErYt1wVxA3Frb9FjasjTV';
/** Vortex keeps 0.28% of the input: the curve sees in·9972/10000. */
const [FEE_NUM, FEE_DEN] = [9972n, 10000n];

/** Vortex's storage as the node prints it: Pair(tokenPool, xtzPool, lqtTotal, …, tokenAddress, lqtAddress, …). */
function reserves(storage: unknown): { token: bigint; tez: bigint; lqt: bigint } {
  const [token, tez, lqt] = leadingInts(storage);
  return { token, tez, lqt };
}

/** The constant-product output of a Dexter-style pool for `amountIn` with the fee kept from the input. */
const bought = (amountIn: bigint, inPool: bigint, outPool: bigint) => (amountIn * FEE_NUM * outPool) / (inPool * FEE_DEN + amountIn * FEE_NUM);

describe('defi-dex: a Vortex (Dexter-style) pool on the sandbox chain', function () {
  this.timeout(240_000);
  const chain = new SandboxChain({ seed: 'dex-vortex', profile: 'tiny' });
  let t: TestInstance;
  let calls: NormalizedOperation[];
  before(async () => {
    t = await startTestInstance({ plugins: discoverPlugins([BUILTIN_PLUGIN_DIR]) });
    chain.bakeTo(160);
    await indexSandbox(t, chain);
    calls = callsTo(chain, CONTRACT);
  });
  after(() => t?.close());

  it('declares the pool at its first call and records every call with the reserves of the storage after it', async () => {
    const events = (await readTable(t, 'dex_event', ['event_type', 'supply_a', 'supply_b', 'supply_lp', 'tx_hash'], `pool=${POOL}`)).filter((e) => e.event_type !== 'create' && e.event_type !== 'transfer');
    expect(calls.length, 'pool calls').to.be.greaterThan(3);
    expect(events.map((e) => e.tx_hash)).to.deep.equal(calls.map((c) => c.hash));
    calls.forEach((c, i) => {
      const r = reserves(c.storage);
      expect([events[i].supply_a, events[i].supply_b, events[i].supply_lp], c.hash).to.deep.equal([r.token, r.tez, r.lqt].map(String));
      const kind = { xtzToToken: 'trade', tokenToXtz: 'trade', addLiquidity: 'deposit', removeLiquidity: 'withdraw' }[c.entrypoint as string];
      expect(events[i].event_type, c.hash).to.equal(kind);
    });
    const [row] = await readTable(t, 'dex_pool', ['entity', 'fees_bps', 'token_a', 'token_b', 'num_trades'], `pool=${POOL}`);
    expect([row.entity, Number(row.fees_bps), row.token_a, row.token_b]).to.deep.equal(['vortex_v1', 28, `${KUSD}_0`, 'tez']);
    expect(Number(row.num_trades)).to.equal(events.filter((e) => e.event_type === 'trade').length);
  });

  it('trades: amounts are the reserve moves, the output follows the 0.28% input fee, the fee is what it keeps', async () => {
    const trades = new Map((await readTable(t, 'dex_trade', ['side', 'base_volume', 'quote_volume', 'lp_fee', 'lp_fee_token', 'tx_hash'], `pool=${POOL}`)).map((r) => [r.tx_hash, r]));
    let prev = reserves(calls[0].storage);
    const seen = new Set<string>();
    for (const c of calls.slice(1)) {
      const now = reserves(c.storage);
      const tr = trades.get(c.hash);
      if (c.entrypoint === 'xtzToToken' || c.entrypoint === 'tokenToXtz') {
        expect(tr, c.hash).to.not.equal(undefined);
        const buy = c.entrypoint === 'xtzToToken';
        const [baseMoved, quoteMoved] = buy ? [prev.token - now.token, now.tez - prev.tez] : [now.token - prev.token, prev.tez - now.tez];
        const amountIn = buy ? quoteMoved : baseMoved;
        const out = buy ? bought(amountIn, prev.tez, prev.token) : bought(amountIn, prev.token, prev.tez);
        const fee = amountIn - (amountIn * FEE_NUM) / FEE_DEN;
        expect([tr!.side, BigInt(tr!.base_volume), BigInt(tr!.quote_volume), BigInt(tr!.lp_fee), tr!.lp_fee_token], c.hash).to.deep.equal([buy ? 'buy' : 'sell', baseMoved, quoteMoved, fee, buy ? '1' : '0']);
        expect(buy ? baseMoved : quoteMoved, `${c.hash} curve`).to.equal(out);
        seen.add(c.entrypoint);
      }
      prev = now;
    }
    expect([...seen].sort(), 'both trade directions compared').to.deep.equal(['tokenToXtz', 'xtzToToken']);
  });

  it("positions hold each owner's change of the LQT token ledger since the pool was first seen", async () => {
    // Oracle: the ledger of the LQT token (the contract the pool calls `mintOrBurn` on).
    const lqt = canonical(chain).flatMap((b) => b.operations).find((o) => o.sender === CONTRACT && o.entrypoint === 'mintOrBurn')!.receiver!;
    const want = ledgerChanges(chain, lqt, calls[0]);
    expect(calls.some((c) => c.entrypoint === 'addLiquidity' || c.entrypoint === 'removeLiquidity'), 'liquidity calls').to.equal(true);
    const positions = await readTable(t, 'dex_position', ['owner', 'shares'], `pool=${POOL}`);
    const got = new Map(positions.map((p) => [p.owner, BigInt(p.shares)]));
    for (const owner of new Set([...want.keys(), ...got.keys()])) expect(got.get(owner) ?? 0n, owner).to.equal(want.get(owner) ?? 0n);
    const [row] = await readTable(t, 'dex_pool', ['token_lp'], `pool=${POOL}`);
    expect(row.token_lp).to.equal(`${lqt}_0`);
  });
});
