import { expect } from 'chai';
import { BUILTIN_PLUGIN_DIR } from '../../../framework/app/TzidxApp';
import type { NormalizedOperation } from '../../../framework/chain';
import { plainValue } from '../../../framework/michelson/PlainValue';
import { discoverPlugins } from '../../../framework/plugins/PluginDiscovery';
import { SandboxChain } from '../../../framework/sandbox';
import { routerRecipient } from '../../../plugins/defi-dex/adapters/spicy/router';
import { ROUTER_ENTRYPOINTS, SPICY_ROUTER } from '../../../plugins/defi-dex/adapters/spicy/types';
import { SPICY_LABELS } from '../../../plugins/defi-dex/adapters/spicy/sim/sandbox';
import { readFixtureJson } from '../../support/fixtures';
import { canonical, indexSandbox } from '../../support/IndexHarness';
import { startTestInstance, TestInstance } from '../../support/TestInstance';
import { readTable } from '../../core-chain/support/tableReader';
import { callsTo, ledgerDiffs } from '../support/poolCalls';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;
const POOL_CALLS = ['swap', 'add_liquidity', 'remove_liquidity'];

/** The fields of a right-comb `Pair` (n-ary or nested), in order. */
function combFields(v: Json): Json[] {
  const out: Json[] = [];
  let node = v;
  while (node?.prim === 'Pair') {
    out.push(...node.args.slice(0, -1));
    node = node.args[node.args.length - 1];
  }
  out.push(node);
  return out;
}

/** A pair's raw storage: (token0, token1, reserve0, reserve1, total_supply, ledger big map id). */
function pairStorage(storage: unknown): { r0: bigint; r1: bigint; lqt: bigint; ledger: number } {
  const f = combFields(storage);
  return { r0: BigInt(f[2].int), r1: BigInt(f[3].int), lqt: BigInt(f[4].int), ledger: Number(f[5].int) };
}

/** Uniswap v2's output for `amountIn`: 0.3% of the input stays in the pool. */
const amountOut = (amountIn: bigint, rIn: bigint, rOut: bigint) =>
  (amountIn * 997n * rOut) / (rIn * 1000n + amountIn * 997n);

describe('defi-dex: SpicySwap router entrypoints (mainnet types)', () => {
  it('the adapter reads the router calls with the mainnet types of every entrypoint it follows', () => {
    const real = readFixtureJson<{ entrypoints: Record<string, Json> }>(
      'defi',
      'pytezos',
      `spicyswap_router_${SPICY_ROUTER}`,
      '__entrypoints__.json',
    ).entrypoints;
    for (const [name, type] of Object.entries(ROUTER_ENTRYPOINTS)) expect(type, name).to.deep.equal(real[name]);
    // A value built from the recorded type: `_to` is the first leaf of every one of them.
    const sample = (t: Json): Json => {
      if (t.prim === 'pair') return { prim: 'Pair', args: t.args.map(sample) };
      if (t.prim === 'address') return { string: 'tz1Ke2h7sDdakHJQh8WX4Z372du1KChsksyU' };
      if (t.prim === 'option') return { prim: 'Some', args: [sample(t.args[0])] };
      if (t.prim === 'timestamp') return { string: '2024-01-01T00:00:00Z' };
      return { int: '7' };
    };
    for (const name of Object.keys(ROUTER_ENTRYPOINTS)) {
      const raw = sample(real[name]);
      expect(routerRecipient(name, raw), name).to.equal('tz1Ke2h7sDdakHJQh8WX4Z372du1KChsksyU');
      expect(plainValue(ROUTER_ENTRYPOINTS[name], raw), name).to.deep.equal(plainValue(real[name], raw));
    }
    expect(Object.keys(ROUTER_ENTRYPOINTS).sort()).to.deep.equal(
      Object.keys(real)
        .filter((n) => n.startsWith('swap_') || n.startsWith('fin') || n.endsWith('_route'))
        .sort(),
    );
  });
});

describe('defi-dex: SpicySwap pairs on the sandbox chain', function () {
  this.timeout(300_000);
  const chain = new SandboxChain({ seed: 'spicy', profile: 'tiny', traffic: ['defi-dex:spicy'] });
  const contracts = [SPICY_LABELS.ctezKusd, SPICY_LABELS.kusdTzbtc].map((l) => chain.contracts.derivedAddress(l));
  let t: TestInstance;
  let calls: NormalizedOperation[][];
  before(async () => {
    t = await startTestInstance({ plugins: discoverPlugins([BUILTIN_PLUGIN_DIR]) });
    chain.bakeTo(160);
    await indexSandbox(t, chain);
    calls = contracts.map((c) => callsTo(chain, c).filter((o) => POOL_CALLS.includes(o.entrypoint ?? '')));
  });
  after(() => t?.close());

  it('records every pair call with the reserves and LP supply of the raw storage after it, and the pool as of the last block', async () => {
    for (const [i, contract] of contracts.entries()) {
      const pool = `${contract}_0`;
      const events = (
        await readTable(t, 'dex_event', ['event_type', 'supply_a', 'supply_b', 'supply_lp', 'tx_hash'], `pool=${pool}`)
      ).filter((e) => e.event_type !== 'create' && e.event_type !== 'transfer');
      expect(calls[i].length, `${pool} calls`).to.be.greaterThan(3);
      expect(events.map((e) => e.tx_hash)).to.deep.equal(calls[i].map((c) => c.hash));
      calls[i].forEach((c, k) => {
        const s = pairStorage(c.storage);
        expect([events[k].supply_a, events[k].supply_b, events[k].supply_lp], c.hash).to.deep.equal(
          [s.r0, s.r1, s.lqt].map(String),
        );
      });
      // The pool row holds the storage after the last block's calls (transfers change no reserve).
      const last = pairStorage(callsTo(chain, contract).at(-1)!.storage);
      const [row] = await readTable(
        t,
        'dex_pool',
        ['entity', 'fees_bps', 'supply_a', 'supply_b', 'supply_lp', 'token_lp'],
        `pool=${pool}`,
      );
      expect([row.entity, Number(row.fees_bps), row.supply_a, row.supply_b, row.supply_lp, row.token_lp]).to.deep.equal(
        ['spicy_v1', 30, String(last.r0), String(last.r1), String(last.lqt), `${contract}_0`],
      );
    }
  });

  it("swaps: amounts are the reserve moves, the output is Uniswap v2's 997/1000 formula, the router and the user are recorded", async () => {
    let checked = 0;
    const hashes: string[] = [];
    for (const [i, contract] of contracts.entries()) {
      const trades = await readTable(
        t,
        'dex_trade',
        ['side', 'base_volume', 'quote_volume', 'lp_fee', 'router', 'sender', 'receiver', 'signer', 'tx_hash'],
        `pool=${contract}_0`,
      );
      let prev = pairStorage(calls[i][0].storage);
      let n = calls[i][0].entrypoint === 'swap' ? 1 : 0; // the first call declares the pool
      for (const c of calls[i].slice(1)) {
        const now = pairStorage(c.storage);
        if (c.entrypoint === 'swap') {
          const tr = trades[n++];
          expect(tr.tx_hash).to.equal(c.hash);
          const buy = now.r1 > prev.r1; // token1 (quote) in
          const [amountIn, out] = buy ? [now.r1 - prev.r1, prev.r0 - now.r0] : [now.r0 - prev.r0, prev.r1 - now.r1];
          const expectedOut = buy ? amountOut(amountIn, prev.r1, prev.r0) : amountOut(amountIn, prev.r0, prev.r1);
          const [base, quote] = buy ? [out, amountIn] : [amountIn, out];
          expect([tr.side, BigInt(tr.base_volume), BigInt(tr.quote_volume), BigInt(tr.lp_fee)], c.hash).to.deep.equal([
            buy ? 'buy' : 'sell',
            base,
            quote,
            amountIn - (amountIn * 997n) / 1000n,
          ]);
          expect(out, c.hash).to.equal(expectedOut);
          expect([tr.router, tr.sender, tr.receiver], c.hash).to.deep.equal([SPICY_ROUTER, c.source, c.source]);
          expect(c.sender).to.equal(SPICY_ROUTER);
          hashes.push(c.hash);
          checked++;
        }
        prev = now;
      }
      expect(n).to.equal(trades.length);
    }
    expect(checked, 'swaps compared').to.be.greaterThan(4);
    expect(
      hashes.filter((h, k) => hashes.indexOf(h) !== k).length,
      'two-pair paths (one trade per pair)',
    ).to.be.greaterThan(0);
  });

  it("positions hold each owner's change of the pair's LP ledger since the pair was first seen (mints, burns, transfers)", async () => {
    const blocks = canonical(chain);
    let transfers = 0;
    let burned = false;
    let minted = false;
    for (const [i, contract] of contracts.entries()) {
      const first = calls[i][0];
      const firstLevel = blocks.find((b) => b.operations.some((o) => o.hash === first.hash))!.level;
      const ledgerId = pairStorage(first.storage).ledger;
      transfers += blocks
        .filter((b) => b.level >= firstLevel)
        .flatMap((b) => b.operations)
        .filter((o) => o.receiver === contract && o.isSuccess && o.entrypoint === 'transfer' && !o.isInternal).length;
      // The pairs start empty: their first call is the deposit that opened them, whose shares count.
      const want = ledgerDiffs(chain, ledgerId, firstLevel);
      const positions = await readTable(
        t,
        'dex_position',
        ['owner', 'shares', 'shares_sent', 'shares_received', 'shares_burned', 'shares_minted'],
        `pool=${contract}_0`,
      );
      burned ||= positions.some((p) => p.shares_burned !== '0');
      minted ||= positions.some((p) => p.shares_minted !== '0');
      const got = new Map(positions.map((p) => [p.owner, BigInt(p.shares)]));
      for (const owner of new Set([...want.keys(), ...got.keys()]))
        expect(got.get(owner) ?? 0n, owner).to.equal(want.get(owner) ?? 0n);
    }
    expect(transfers, 'LP transfers between holders after the pairs were first seen').to.be.greaterThan(0);
    expect([minted, burned], 'deposits and withdrawals').to.deep.equal([true, true]);
  });
});
