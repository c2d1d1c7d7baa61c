import { expect } from 'chai';
import { BUILTIN_PLUGIN_DIR } from '../../../framework/app/TzidxApp';
import type { NormalizedOperation } from '../../../framework/chain';
import { discoverPlugins } from '../../../framework/plugins/PluginDiscovery';
import { SandboxChain } from '../../../framework/sandbox';
import { QUIPUSWAP_V2_LABELS } from '../../../plugins/defi-dex/adapters/quipuswap-v2/sim/sandbox';
import { canonical, indexSandbox } from '../../support/IndexHarness';
import { startTestInstance, TestInstance } from '../../support/TestInstance';
import { readTable } from '../../core-chain/support/tableReader';
import { leadingInts } from '../support/poolCalls';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;
const DEX_CALLS = ['launch_exchange', 'invest_liquidity', 'divest_liquidity', 'swap'];
const P = 10n ** 18n;
/** The items of a right-comb Micheline pair (nested or flat `Pair`s). */
const flat = (v: Json): Json[] =>
  v?.prim === 'Pair' ? v.args.flatMap((x: Json, i: number) => (i === v.args.length - 1 ? flat(x) : [x])) : [v];
/** QuipuSwap v2's fee split as the contract's swap code computes it (1e18 precision). */
function feeSplit(amountIn: bigint, fees: { interface: bigint; swap: bigint; auction: bigint }) {
  const withFee = amountIn * (P - fees.interface - fees.swap - fees.auction);
  const kept = (withFee + amountIn * fees.swap) / P;
  const referral = (amountIn * fees.interface) / P;
  return { kept, lp: (amountIn * fees.swap) / P, referral, burn: amountIn - kept - referral };
}

describe('defi-dex: QuipuSwap v2 DexCore on the sandbox chain', function () {
  this.timeout(300_000);
  const chain = new SandboxChain({ seed: 'dex-quipu-v2', profile: 'tiny', traffic: ['defi-dex:quipuswap-v2'] });
  const core = chain.contracts.derivedAddress(QUIPUSWAP_V2_LABELS.core);
  let t: TestInstance;
  let ops: NormalizedOperation[];
  /** Every applied row, genesis migrations (no hash) included: they hold the seeded LP ledger. */
  let all: NormalizedOperation[];
  let calls: NormalizedOperation[];
  /** Big map ids read from the raw storage: [token_metadata, ledger, accounts, tokens, token_to_id, pairs]. */
  let ids: number[];
  let fees: { interface: bigint; swap: bigint; auction: bigint };
  /** Per call, the pair entries it wrote: pair id → [token_a_pool, token_b_pool, total_supply]. */
  const written = (o: NormalizedOperation): Map<number, bigint[]> =>
    new Map(
      (o.bigMapDiffs ?? [])
        .filter((d) => d.bigMapId === ids[5] && d.action === 'update')
        .map((d: Json) => {
          const [a, b, , , s] = leadingInts(d.value, 5);
          return [Number((d.key as { int: string }).int), [a, b, s]];
        }),
    );
  before(async () => {
    t = await startTestInstance({ plugins: discoverPlugins([BUILTIN_PLUGIN_DIR]) });
    chain.bakeTo(140);
    await indexSandbox(t, chain);
    all = canonical(chain)
      .flatMap((b) => b.operations)
      .filter((o) => o.isSuccess);
    ops = all.filter((o) => o.hash !== '');
    calls = ops.filter((o) => o.receiver === core && DEX_CALLS.includes(o.entrypoint ?? ''));
    // Raw optimized storage: Pair(Pair(big maps…, managers, Pair(fees…), …), lambdas, metadata).
    const raw = calls[0].storage as Json;
    const inner = raw.args[0];
    const fields = Array.isArray(inner) ? inner : flat(inner);
    ids = fields.slice(0, 11).map((f: Json) => Number(f.int));
    const [fi, fs, fa] = leadingInts(fields[12], 3);
    fees = { interface: fi, swap: fs, auction: fa };
  });
  after(() => t?.close());

  it('records, for every pair, one event per call that wrote the pair, with the pairs big map entry as supplies', async () => {
    expect(calls.length, 'DexCore calls').to.be.greaterThan(10);
    const pairIds = new Set(calls.flatMap((c) => [...written(c).keys()]));
    expect([...pairIds].sort(), 'pairs').to.deep.equal([0, 1, 2]);
    for (const id of pairIds) {
      const pool = `${core}_${id}`;
      const want = calls.filter((c) => written(c).has(id)).map((c) => [c.hash, ...written(c).get(id)!.map(String)]);
      const events = (
        await readTable(t, 'dex_event', ['event_type', 'supply_a', 'supply_b', 'supply_lp', 'tx_hash'], `pool=${pool}`)
      ).filter((e) => e.event_type !== 'create' && e.event_type !== 'transfer');
      expect(
        events.map((e) => [e.tx_hash, e.supply_a, e.supply_b, e.supply_lp]),
        pool,
      ).to.deep.equal(want);
      const [row] = await readTable(
        t,
        'dex_pool',
        ['entity', 'fees_bps', 'token_lp', 'supply_a', 'supply_b', 'supply_lp'],
        `pool=${pool}`,
      );
      expect([row.entity, Number(row.fees_bps), row.token_lp]).to.deep.equal([
        'quipu_v2',
        Number((fees.interface + fees.swap + fees.auction) * 10000n) / 1e18,
        `${core}_${id}`,
      ]);
      expect([row.supply_a, row.supply_b, row.supply_lp]).to.deep.equal(want.at(-1)!.slice(1));
    }
  });

  it('swaps: one trade per hop, amounts equal the reserve moves and the fees follow the contract formula', async () => {
    const trades = await readTable(
      t,
      'dex_trade',
      ['pool', 'side', 'base_volume', 'quote_volume', 'lp_fee', 'referral_fee', 'burn', 'lp_fee_token', 'tx_hash'],
      `contract=${core}`,
    );
    const supplies = new Map<number, bigint[]>();
    let hops = 0;
    let multi = 0;
    for (const c of calls) {
      const after = written(c);
      if (c.entrypoint === 'swap') {
        // Raw parameters: Pair(lambda, swaps, …): each swap is Pair(Left Unit = a→b | Right Unit, pair_id).
        const route = (flat(c.parameters)[1] as Json[]).map(
          (h) => [Number(h.args[1].int), h.args[0].prim === 'Left'] as [number, boolean],
        );
        const mine = trades.filter((tr) => tr.tx_hash === c.hash);
        expect(
          mine.map((tr) => tr.pool),
          c.hash,
        ).to.deep.equal(route.map(([id]) => `${core}_${id}`));
        if (route.length > 1) multi++;
        route.forEach(([id, aToB], i) => {
          const [b0, a] = [supplies.get(id), after.get(id)!];
          if (!b0) return; // a pair first met in this call has no reserves before it
          const [dIn, dOut] = aToB ? [a[0] - b0[0], b0[1] - a[1]] : [a[1] - b0[1], b0[0] - a[0]];
          const tr = mine[i];
          // a→b sells base (A) for quote (B).
          const [amountIn, amountOut] = aToB
            ? [BigInt(tr.base_volume), BigInt(tr.quote_volume)]
            : [BigInt(tr.quote_volume), BigInt(tr.base_volume)];
          const f = feeSplit(amountIn, fees);
          expect(
            [tr.side, amountOut, f.kept, BigInt(tr.lp_fee), BigInt(tr.referral_fee), BigInt(tr.burn), tr.lp_fee_token],
            `${c.hash} hop ${i}`,
          ).to.deep.equal([aToB ? 'sell' : 'buy', dOut, dIn, f.lp, f.referral, f.burn, aToB ? '0' : '1']);
          hops++;
        });
      }
      for (const [id, s] of after) supplies.set(id, s);
    }
    expect(hops, 'hops compared').to.be.greaterThan(3);
    expect(multi, 'two-hop swaps').to.be.greaterThan(0);
  });

  it('deposits and withdrawals: volumes equal the reserve moves (tez through the buckets included), volume_lp the LP supply change', async () => {
    const events = new Map(
      (
        await readTable(
          t,
          'dex_event',
          ['pool', 'event_type', 'volume_a', 'volume_b', 'volume_lp', 'tx_hash'],
          `contract=${core}`,
        )
      ).map((e) => [`${e.pool}:${e.tx_hash}`, e]),
    );
    const supplies = new Map<number, bigint[]>();
    const seen = { deposit: 0, withdraw: 0, tez: 0 };
    for (const c of calls) {
      for (const [id, a] of written(c)) {
        const b0 = supplies.get(id) ?? (c.entrypoint === 'launch_exchange' ? [0n, 0n, 0n] : undefined);
        supplies.set(id, a);
        if (!b0 || c.entrypoint === 'swap') continue;
        const e = events.get(`${core}_${id}:${c.hash}`)!;
        const sign = c.entrypoint === 'divest_liquidity' ? -1n : 1n;
        expect([e.event_type, BigInt(e.volume_a), BigInt(e.volume_b), BigInt(e.volume_lp)], c.hash).to.deep.equal([
          sign > 0n ? 'deposit' : 'withdraw',
          sign * (a[0] - b0[0]),
          sign * (a[1] - b0[1]),
          sign * (a[2] - b0[2]),
        ]);
        seen[sign > 0n ? 'deposit' : 'withdraw']++;
        if (id < 2) seen.tez++;
      }
    }
    expect(seen.deposit > 0 && seen.withdraw > 0 && seen.tez > 0, JSON.stringify(seen)).to.equal(true);
  });

  it("positions hold each owner's LP ledger change (FA2 balances per pair, transfers included) since the pair was first seen", async () => {
    const first = new Map<number, number>(); // pair → index in `all` of its first DEX call
    all.forEach((o, i) => {
      if (o.receiver === core && DEX_CALLS.includes(o.entrypoint ?? ''))
        for (const id of written(o).keys()) if (!first.has(id)) first.set(id, i);
    });
    const want = new Map<string, bigint>();
    const ledger = new Map<string, bigint>();
    let transfers = 0;
    all.forEach((o, i) => {
      for (const d of o.bigMapDiffs ?? []) {
        if (d.bigMapId !== ids[1] || (d.action !== 'update' && d.action !== 'remove') || !d.key) continue;
        const k = d.key as Json;
        const [owner, id] = [k.args[0].string as string, Number(k.args[1].int)];
        const now = d.action === 'update' ? BigInt((d.value as { int: string }).int) : 0n;
        const key = `${core}_${id}:${owner}`;
        if (first.has(id) && i >= first.get(id)!) {
          want.set(key, (want.get(key) ?? 0n) + now - (ledger.get(key) ?? 0n));
          if (o.entrypoint === 'transfer' && o.receiver === core) transfers++;
        }
        ledger.set(key, now);
      }
    });
    expect(transfers, 'LP transfers after the pairs were first seen').to.be.greaterThan(0);
    const positions = await readTable(
      t,
      'dex_position',
      ['position', 'shares', 'shares_sent', 'shares_received'],
      `contract=${core}`,
    );
    expect(
      positions.some((p) => p.shares_sent !== '0') && positions.some((p) => p.shares_received !== '0'),
      'transfers recorded',
    ).to.equal(true);
    const got = new Map(positions.map((p) => [p.position, BigInt(p.shares)]));
    for (const k of new Set([...want.keys(), ...got.keys()])) expect(got.get(k) ?? 0n, k).to.equal(want.get(k) ?? 0n);
  });
});
