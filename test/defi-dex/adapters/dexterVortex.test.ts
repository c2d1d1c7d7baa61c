import { expect } from 'chai';
import { BUILTIN_PLUGIN_DIR } from '../../../framework/app/TzidxApp';
import type { NormalizedOperation } from '../../../framework/chain';
import { discoverPlugins } from '../../../framework/plugins/PluginDiscovery';
import { SandboxChain } from '../../../framework/sandbox';
import { DEXTER_LABEL } from '../../../plugins/defi-dex/adapters/dexter/sim/sandbox';
import { canonical, indexSandbox } from '../../support/IndexHarness';
import { startTestInstance, TestInstance } from '../../support/TestInstance';
import { readTable } from '../../core-chain/support/tableReader';
import { callsTo, ledgerChanges, leadingInts } from '../support/poolCalls';

type Reserves = { token: bigint; tez: bigint; lqt: bigint };

interface PoolSpec {
  name: string;
  contract: (chain: SandboxChain) => string;
  entity: string;
  token: string;
  /** The share of the input the curve sees: in·num/den (the rest is the fee). */
  fee: [num: bigint, den: bigint];
  /** Tez the pool pays its fee reserve out of its tez reserve (Vortex), from the reserves before; that fee's bps. */
  reserveFee?: { bps: bigint; of: (xtzIn: boolean, amountIn: bigint, before: Reserves) => bigint };
  reserves: (storage: unknown) => Reserves;
  /** The shares ledger: the LQT token the pool calls `mintOrBurn` on, or the pool itself. */
  ledger: (chain: SandboxChain, pool: string) => string;
  tokenLp: (ledger: string) => string;
}

const TZBTC = 'KT1PWx2mnDueood7fEmfbBDKx1D9BAnnXitn';
const KUSD = 'KT1K9gCRgaLRFKTErYt1wVxA3Frb9FjasjTV';
const SPECS: PoolSpec[] = [
  {
    name: 'Dexter v1 tez/tzBTC',
    contract: (chain) => chain.contracts.derivedAddress(DEXTER_LABEL),
    entity: 'dexter',
    token: TZBTC,
    fee: [997n, 1000n],
    // Pair(accounts, Pair(Pair(selfIsUpdatingTokenPool, Pair(freezeBaker, lqtTotal)), Pair(Pair(manager, tokenAddress),
    // Pair(tokenPool, xtzPool)))).
    reserves: (s) => {
      const [, lqt, token, tez] = leadingInts(s, 4);
      return { token, tez, lqt };
    },
    ledger: (_chain, pool) => pool,
    tokenLp: () => '',
  },
  {
    name: 'Vortex tez/kUSD',
    contract: () => 'KT1Wjadao8AXkwNQmjstbPGtLd1ZrUyQEDX7',
    entity: 'vortex_v1',
    token: KUSD,
    fee: [9972n, 10000n],
    // Vortex's exchange code (stove-labs/arbitrage-bot integration-tests/integration-tests/vortex/contracts/contract.tz
    // at 52ad69b29dfb7558fa7691c24141c882ef665529): xtzToToken pays ⌊3·in/10000⌋ mutez to `reserve`, tokenToXtz
    // the tez 3/10000 of the tokens sold buy without fee, ⌊3·in·xtzPool/(10000·tokenPool + 3·in)⌋.
    reserveFee: {
      bps: 3n,
      of: (xtzIn, a, r) => (xtzIn ? (3n * a) / 10000n : (3n * a * r.tez) / (10000n * r.token + 3n * a)),
    },
    // Pair(tokenPool, xtzPool, lqtTotal, …).
    reserves: (s) => {
      const [token, tez, lqt] = leadingInts(s);
      return { token, tez, lqt };
    },
    ledger: (chain, pool) =>
      canonical(chain)
        .flatMap((b) => b.operations)
        .find((o) => o.sender === pool && o.entrypoint === 'mintOrBurn')!.receiver!,
    tokenLp: (ledger) => `${ledger}_0`,
  },
];

describe('defi-dex: Dexter-style pools (Dexter v1, Vortex) on the sandbox chain', function () {
  this.timeout(240_000);
  const chain = new SandboxChain({
    seed: 'dex-vortex',
    profile: 'tiny',
    traffic: ['defi-dex:dexter', 'defi-dex:vortex'],
  });
  let t: TestInstance;
  before(async () => {
    t = await startTestInstance({ plugins: discoverPlugins([BUILTIN_PLUGIN_DIR]) });
    chain.bakeTo(140);
    await indexSandbox(t, chain);
  });
  after(() => t?.close());

  for (const spec of SPECS) {
    describe(spec.name, () => {
      let contract: string;
      let pool: string;
      let calls: NormalizedOperation[];
      before(() => {
        contract = spec.contract(chain);
        pool = `${contract}_0`;
        calls = callsTo(chain, contract);
      });

      it('declares the pool at its first call and records every call with the reserves of the storage after it', async () => {
        const events = (
          await readTable(
            t,
            'dex_event',
            ['event_type', 'supply_a', 'supply_b', 'supply_lp', 'tx_hash'],
            `pool=${pool}`,
          )
        ).filter((e) => e.event_type !== 'create' && e.event_type !== 'transfer');
        expect(calls.length, 'pool calls').to.be.greaterThan(3);
        expect(events.map((e) => e.tx_hash)).to.deep.equal(calls.map((c) => c.hash));
        calls.forEach((c, i) => {
          const r = spec.reserves(c.storage);
          expect([events[i].supply_a, events[i].supply_b, events[i].supply_lp], c.hash).to.deep.equal(
            [r.token, r.tez, r.lqt].map(String),
          );
          const kind = {
            xtzToToken: 'trade',
            tokenToXtz: 'trade',
            addLiquidity: 'deposit',
            removeLiquidity: 'withdraw',
          }[c.entrypoint as string];
          expect(events[i].event_type, c.hash).to.equal(kind);
        });
        const [row] = await readTable(
          t,
          'dex_pool',
          ['entity', 'fees_bps', 'token_a', 'token_b', 'num_trades'],
          `pool=${pool}`,
        );
        const bps = Number(((spec.fee[1] - spec.fee[0]) * 10000n) / spec.fee[1]);
        expect([row.entity, Number(row.fees_bps), row.token_a, row.token_b]).to.deep.equal([
          spec.entity,
          bps,
          `${spec.token}_0`,
          'tez',
        ]);
        expect(Number(row.num_trades)).to.equal(events.filter((e) => e.event_type === 'trade').length);
      });

      it('trades: the output follows the input fee, the fee is what the curve did not see less the reserve fee', async () => {
        const [num, den] = spec.fee;
        const bought = (amountIn: bigint, inPool: bigint, outPool: bigint) =>
          (amountIn * num * outPool) / (inPool * den + amountIn * num);
        const fees = ['lp_fee_token', 'dev_fee', 'dev_fee_token'];
        const columns = ['side', 'base_volume', 'quote_volume', 'lp_fee', ...fees, 'tx_hash'];
        const trades = new Map((await readTable(t, 'dex_trade', columns, `pool=${pool}`)).map((r) => [r.tx_hash, r]));
        let prev = spec.reserves(calls[0].storage);
        const seen = new Set<string>();
        for (const c of calls.slice(1)) {
          const now = spec.reserves(c.storage);
          if (c.entrypoint === 'xtzToToken' || c.entrypoint === 'tokenToXtz') {
            const tr = trades.get(c.hash);
            expect(tr, c.hash).to.not.equal(undefined);
            const buy = c.entrypoint === 'xtzToToken';
            // The tez sent with the call, or the tokens the pool received (it keeps them all).
            const amountIn = buy ? c.volume : now.token - prev.token;
            const out = buy ? bought(amountIn, prev.tez, prev.token) : bought(amountIn, prev.token, prev.tez);
            const reserve = spec.reserveFee?.of(buy, amountIn, prev) ?? 0n;
            const moved = [now.token - prev.token, now.tez - prev.tez];
            const want = buy ? [-out, amountIn - reserve] : [amountIn, -out - reserve];
            expect(moved, `${c.hash} reserves`).to.deep.equal(want);
            // The LPs keep the fee less the reserve's rate when the reserve was paid, rounded up.
            const lpBps = reserve > 0n ? den - num - spec.reserveFee!.bps : den - num;
            const lp = amountIn - (amountIn * (den - lpBps)) / den;
            const amounts = [tr!.base_volume, tr!.quote_volume, tr!.lp_fee].map((v) => BigInt(v as string));
            const got = [tr!.side, ...amounts, ...fees.map((f) => tr![f])];
            const dev = reserve > 0n ? [String(reserve), '1'] : ['', ''];
            const [base, quote] = buy ? [out, amountIn] : [amountIn, out];
            expect(got, c.hash).to.deep.equal([buy ? 'buy' : 'sell', base, quote, lp, buy ? '1' : '0', ...dev]);
            seen.add(c.entrypoint);
            if (reserve > 0n) seen.add('reserve paid');
          }
          prev = now;
        }
        const want = spec.reserveFee ? ['reserve paid', 'tokenToXtz', 'xtzToToken'] : ['tokenToXtz', 'xtzToToken'];
        expect([...seen].sort(), 'both trade directions compared').to.deep.equal(want);
      });

      it("positions hold each owner's change of the shares ledger since the pool was first seen", async () => {
        const ledger = spec.ledger(chain, contract);
        const want = ledgerChanges(chain, ledger, calls[0]);
        expect(
          calls.some((c) => c.entrypoint === 'addLiquidity' || c.entrypoint === 'removeLiquidity'),
          'liquidity calls',
        ).to.equal(true);
        const positions = await readTable(t, 'dex_position', ['owner', 'shares'], `pool=${pool}`);
        const got = new Map(positions.map((p) => [p.owner, BigInt(p.shares)]));
        for (const owner of new Set([...want.keys(), ...got.keys()]))
          expect(got.get(owner) ?? 0n, owner).to.equal(want.get(owner) ?? 0n);
        const [row] = await readTable(t, 'dex_pool', ['token_lp'], `pool=${pool}`);
        expect(row.token_lp ?? '').to.equal(spec.tokenLp(ledger));
      });
    });
  }
});
