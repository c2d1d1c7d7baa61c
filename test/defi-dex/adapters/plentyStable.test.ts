import { expect } from 'chai';
import { BUILTIN_PLUGIN_DIR } from '../../../framework/app/TzidxApp';
import type { NormalizedOperation } from '../../../framework/chain';
import { ContractTypes } from '../../../framework/michelson/ContractTypes';
import { discoverPlugins } from '../../../framework/plugins/PluginDiscovery';
import { SandboxChain } from '../../../framework/sandbox';
import { KNOWN_ADDRESSES } from '../../../framework/sandbox/extension';
import { PLENTY_STABLE_LABELS } from '../../../plugins/defi-dex/adapters/plenty-stable/sim/sandbox';
import { readFixtureJson } from '../../support/fixtures';
import { canonical, indexSandbox } from '../../support/IndexHarness';
import { startTestInstance, TestInstance } from '../../support/TestInstance';
import { readTable } from '../../core-chain/support/tableReader';
import { flatCurveOut, Q48 } from '../support/flatCurve';
import { callsTo } from '../support/poolCalls';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;
/** The pools' storages are read with the mainnet contracts' types (pytezos recordings), not the sandbox's. */
const mainnetTypes = (dir: string) =>
  ContractTypes.fromScript(readFixtureJson('defi', 'pytezos', dir, '__script__.json'))!;
const LP_FEE = 1000n;

/**
 * The fee of a swap whose curve output was `w` and which paid `paid` = w − ⌊w/lpFee⌋. Only `paid` is on
 * chain, and when it is a multiple of lpFee − 1 two outputs pay it (docs: one raw unit under): the
 * fee is then ⌊w/lpFee⌋ or one less; otherwise exactly ⌊w/lpFee⌋.
 */
function expectFee(fee: bigint, w: bigint, paid: bigint, what: string): void {
  const exact = w / LP_FEE;
  if (paid % (LP_FEE - 1n) === 0n) expect([exact, exact - 1n], what).to.include(fee);
  else expect(fee, what).to.equal(exact);
}
const MOVES = ['Swap', 'add_liquidity', 'remove_liquidity', 'tez_to_ctez_callback', 'ctez_to_tez_callback'];

/** FA1.2 `transfer (from, (to, value))` of a raw internal call, read by hand. */
function fa12(o: NormalizedOperation): { token: string; from: string; to: string; value: bigint } | undefined {
  const p = o.parameters as Json;
  if (o.entrypoint !== 'transfer' || p?.prim !== 'Pair') return undefined;
  const [from, rest] = p.args;
  const [to, value] = rest.prim === 'Pair' ? rest.args : [rest, undefined];
  return { token: o.receiver!, from: from.string, to: to.string, value: BigInt(value.int) };
}

describe('defi-dex: Plenty stable pools on the sandbox chain (tzBTC/kUSD tokens, ctez/tez)', function () {
  this.timeout(300_000);
  const chain = new SandboxChain({ seed: 'plenty-stable', profile: 'tiny', traffic: ['defi-dex:plenty-stable'] });
  const address = (label: string) => chain.contracts.derivedAddress(label);
  const pools = [
    {
      contract: address(PLENTY_STABLE_LABELS.tokenPool),
      types: mainnetTypes('usdt_e_usdc_e_plenty_stable_swap'),
      reserves: (s: Json) => [s.token1Pool, s.token2Pool, s.lqtTotal] as bigint[],
    },
    {
      contract: address(PLENTY_STABLE_LABELS.ctezPool),
      types: mainnetTypes('ctez_tez_plenty_stable_swap'),
      reserves: (s: Json) => [s.ctezPool, s.tezPool, s.lqtTotal] as bigint[],
    },
  ];
  let t: TestInstance;
  let ops: NormalizedOperation[];
  let calls: NormalizedOperation[][];
  before(async () => {
    t = await startTestInstance({ plugins: discoverPlugins([BUILTIN_PLUGIN_DIR]) });
    chain.bakeTo(140);
    await indexSandbox(t, chain);
    ops = canonical(chain).flatMap((b) => b.operations);
    calls = pools.map((p) => callsTo(chain, p.contract).filter((o) => MOVES.includes(o.entrypoint ?? '')));
  });
  after(() => t?.close());

  const reservesAfter = (i: number, o: NormalizedOperation) =>
    pools[i].reserves(pools[i].types.storage(o.storage) as Json);
  /** What the pool's group moved: FA1.2 transfers and tez payments from the receipts. */
  const moved = (hash: string, pool: string) => {
    const group = ops.filter((o) => o.hash === hash && o.isSuccess);
    const transfers = group.map(fa12).filter((x) => x !== undefined);
    const tokens = (token: string, dir: 'in' | 'out') =>
      transfers
        .filter((x) => x.token === token && (dir === 'in' ? x.to === pool : x.from === pool))
        .reduce((s, x) => s + x.value, 0n);
    const tezIn = group.filter((o) => o.receiver === pool && o.volume > 0n).reduce((s, o) => s + o.volume, 0n);
    const tezOut = group
      .filter((o) => o.sender === pool && !o.entrypoint && o.volume > 0n)
      .reduce((s, o) => s + o.volume, 0n);
    const lp = group
      .filter((o) => o.entrypoint === 'mintOrBurn' && o.sender === pool)
      .reduce((s, o) => s + BigInt((o.parameters as Json).args[0].int), 0n);
    return { tokens, tezIn, tezOut, lp };
  };

  it('records every reserve-moving call with the supplies of its raw storage (mainnet types), and the pools as of the last block', async () => {
    for (const [i, p] of pools.entries()) {
      const events = (
        await readTable(
          t,
          'dex_event',
          ['event_type', 'supply_a', 'supply_b', 'supply_lp', 'tx_hash'],
          `pool=${p.contract}_0`,
        )
      ).filter((e) => e.event_type !== 'create' && e.event_type !== 'transfer');
      expect(calls[i].length, `${p.contract} calls`).to.be.greaterThan(3);
      expect(events.map((e) => e.tx_hash)).to.deep.equal(calls[i].map((c) => c.hash));
      calls[i].forEach((c, k) =>
        expect([events[k].supply_a, events[k].supply_b, events[k].supply_lp], c.hash).to.deep.equal(
          reservesAfter(i, c).map(String),
        ),
      );
      const last = reservesAfter(i, callsTo(chain, p.contract).at(-1)!);
      const [row] = await readTable(
        t,
        'dex_pool',
        ['entity', 'fees_bps', 'supply_a', 'supply_b', 'supply_lp'],
        `pool=${p.contract}_0`,
      );
      expect([row.entity, row.fees_bps, row.supply_a, row.supply_b, row.supply_lp]).to.deep.equal([
        'plenty_stable',
        (10000 / Number(LP_FEE)).toFixed(2),
        ...last.map(String),
      ]);
    }
  });

  it('tzBTC/kUSD: trades and liquidity are what the receipts moved; the fee is ⌊W/lpFee⌋ of the curve output', async () => {
    const pool = pools[0].contract;
    const trades = new Map(
      (
        await readTable(
          t,
          'dex_trade',
          ['side', 'base_volume', 'quote_volume', 'lp_fee', 'lp_fee_token', 'tx_hash'],
          `pool=${pool}_0`,
        )
      ).map((r) => [r.tx_hash, r]),
    );
    const events = new Map(
      (
        await readTable(
          t,
          'dex_event',
          ['event_type', 'volume_a', 'volume_b', 'volume_lp', 'tx_hash'],
          `pool=${pool}_0`,
        )
      ).map((r) => [r.tx_hash, r]),
    );
    let prev = reservesAfter(0, calls[0][0]);
    const kinds = new Set<string>();
    for (const c of calls[0].slice(1)) {
      const m = moved(c.hash, pool);
      const [a, b] = [m.tokens(KNOWN_ADDRESSES.tzBTC, 'in'), m.tokens(KNOWN_ADDRESSES.kUSD, 'in')];
      const [outA, outB] = [m.tokens(KNOWN_ADDRESSES.tzBTC, 'out'), m.tokens(KNOWN_ADDRESSES.kUSD, 'out')];
      const e = events.get(c.hash)!;
      kinds.add(e.event_type);
      if (c.entrypoint === 'Swap') {
        const tr = trades.get(c.hash)!;
        const buy = b > 0n; // token B (quote) in
        const w = buy ? flatCurveOut(prev[1], prev[0], b) : flatCurveOut(prev[0], prev[1], a);
        expect([tr.side, BigInt(tr.base_volume), BigInt(tr.quote_volume), tr.lp_fee_token], c.hash).to.deep.equal(
          buy ? ['buy', outA, b, '0'] : ['sell', a, outB, '1'],
        );
        expectFee(BigInt(tr.lp_fee), w, buy ? outA : outB, c.hash);
        expect(buy ? outA : outB, 'paid: the curve output less the fee').to.equal(w - w / LP_FEE);
      } else {
        expect([BigInt(e.volume_a), BigInt(e.volume_b), BigInt(e.volume_lp)], c.hash).to.deep.equal(
          c.entrypoint === 'add_liquidity' ? [a, b, m.lp] : [outA, outB, -m.lp],
        );
      }
      prev = reservesAfter(0, c);
    }
    expect([...kinds].sort()).to.deep.equal(['deposit', 'trade', 'withdraw']);
  });

  it('ctez/tez: each swap is one trade at its callback, with the tez sent to the opening call and what the pool paid', async () => {
    const pool = pools[1].contract;
    const trades = await readTable(
      t,
      'dex_trade',
      ['side', 'base_volume', 'quote_volume', 'lp_fee', 'sender', 'receiver', 'tx_hash'],
      `pool=${pool}_0`,
    );
    const swaps = calls[1].filter((c) => c.entrypoint!.endsWith('_callback'));
    expect(trades.map((r) => r.tx_hash)).to.deep.equal(swaps.map((c) => c.hash));
    let prev = reservesAfter(1, calls[1][0]);
    let k = calls[1][0].entrypoint!.endsWith('_callback') ? 1 : 0; // the first call declares the pool
    for (const c of calls[1].slice(1)) {
      const m = moved(c.hash, pool);
      if (c.entrypoint!.endsWith('_callback')) {
        const tr = trades[k++];
        const target = BigInt((c.parameters as Json).int);
        const tezIn = c.entrypoint === 'tez_to_ctez_callback';
        const ctez = m.tokens(KNOWN_ADDRESSES.ctez, tezIn ? 'out' : 'in');
        const w = tezIn
          ? flatCurveOut(prev[1] << Q48, target * prev[0], m.tezIn << Q48) / target
          : flatCurveOut(target * prev[0], prev[1] << Q48, target * ctez) >> Q48;
        const user = ops.find((o) => o.hash === c.hash && !o.isInternal)!.source;
        expect(
          [tr.side, BigInt(tr.base_volume), BigInt(tr.quote_volume), tr.sender, tr.receiver],
          c.hash,
        ).to.deep.equal([tezIn ? 'buy' : 'sell', ctez, tezIn ? m.tezIn : m.tezOut, user, user]);
        expectFee(BigInt(tr.lp_fee), w, tezIn ? ctez : m.tezOut, c.hash);
        expect(tezIn ? ctez : m.tezOut, 'paid: the curve output less the fee').to.equal(w - w / LP_FEE);
      }
      prev = reservesAfter(1, c);
    }
    expect(k, 'ctez/tez swaps compared').to.equal(trades.length);
    expect(k).to.be.greaterThan(1);
    const positions = await readTable(t, 'dex_position', ['owner', 'shares_minted', 'shares_burned'], `pool=${pool}_0`);
    const lp = new Map<string, bigint>();
    // Shares come from the LP token calls, so a deposit that declares the pool counts too.
    for (const c of calls[1])
      if (!c.entrypoint!.endsWith('_callback')) lp.set(c.source!, (lp.get(c.source!) ?? 0n) + moved(c.hash, pool).lp);
    expect(lp.size, 'liquidity providers').to.be.greaterThan(0);
    expect(new Map(positions.map((p) => [p.owner, BigInt(p.shares_minted) - BigInt(p.shares_burned)]))).to.deep.equal(
      lp,
    );
  });
});
