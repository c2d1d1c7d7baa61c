import { expect } from 'chai';
import { BUILTIN_PLUGIN_DIR } from '../../../framework/app/TzidxApp';
import type { NormalizedOperation } from '../../../framework/chain';
import { discoverPlugins } from '../../../framework/plugins/PluginDiscovery';
import { SandboxChain } from '../../../framework/sandbox';
import { DEXTER_LABEL } from '../../../plugins/defi-dex/adapters/dexter/sandbox';
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
  /** The share of the input the curve sees: in·num/den (the rest is the LP fee). */
  fee: [num: bigint, den: bigint];
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
    // Pair(accounts, Pair(Pair(selfIsUpdatingTokenPool, Pair(freezeBaker, lqtTotal)), Pair(Pair(manager, tokenAddress), Pair(tokenPool, xtzPool)))).
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
    // Pair(tokenPool, xtzPool, lqtTotal, …).
    reserves: (s) => {
      const [token, tez, lqt] = leadingInts(s);
      return { token, tez, lqt };
    },
    ledger: (chain, pool) => canonical(chain).flatMap((b) => b.operations).find((o) => o.sender === pool && o.entrypoint === 'mintOrBurn')!.receiver!,
    tokenLp: (ledger) => `${ledger}_0`,
  },
];

describe('defi-dex: Dexter-style pools (Dexter v1, Vortex) on the sandbox chain', function () {
  this.timeout(240_000);
  const chain = new SandboxChain({ seed: 'dex-vortex', profile: 'tiny', traffic: ['defi-dex:dexter', 'defi-dex:vortex'] });
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
        const events = (await readTable(t, 'dex_event', ['event_type', 'supply_a', 'supply_b', 'supply_lp', 'tx_hash'], `pool=${pool}`)).filter((e) => e.event_type !== 'create' && e.event_type !== 'transfer');
        expect(calls.length, 'pool calls').to.be.greaterThan(3);
        expect(events.map((e) => e.tx_hash)).to.deep.equal(calls.map((c) => c.hash));
        calls.forEach((c, i) => {
          const r = spec.reserves(c.storage);
          expect([events[i].supply_a, events[i].supply_b, events[i].supply_lp], c.hash).to.deep.equal([r.token, r.tez, r.lqt].map(String));
          const kind = { xtzToToken: 'trade', tokenToXtz: 'trade', addLiquidity: 'deposit', removeLiquidity: 'withdraw' }[c.entrypoint as string];
          expect(events[i].event_type, c.hash).to.equal(kind);
        });
        const [row] = await readTable(t, 'dex_pool', ['entity', 'fees_bps', 'token_a', 'token_b', 'num_trades'], `pool=${pool}`);
        const bps = Number(((spec.fee[1] - spec.fee[0]) * 10000n) / spec.fee[1]);
        expect([row.entity, Number(row.fees_bps), row.token_a, row.token_b]).to.deep.equal([spec.entity, bps, `${spec.token}_0`, 'tez']);
        expect(Number(row.num_trades)).to.equal(events.filter((e) => e.event_type === 'trade').length);
      });

      it('trades: amounts are the reserve moves, the output follows the input fee, the fee is what the curve did not see', async () => {
        const [num, den] = spec.fee;
        const bought = (amountIn: bigint, inPool: bigint, outPool: bigint) => (amountIn * num * outPool) / (inPool * den + amountIn * num);
        const trades = new Map((await readTable(t, 'dex_trade', ['side', 'base_volume', 'quote_volume', 'lp_fee', 'lp_fee_token', 'tx_hash'], `pool=${pool}`)).map((r) => [r.tx_hash, r]));
        let prev = spec.reserves(calls[0].storage);
        const seen = new Set<string>();
        for (const c of calls.slice(1)) {
          const now = spec.reserves(c.storage);
          if (c.entrypoint === 'xtzToToken' || c.entrypoint === 'tokenToXtz') {
            const tr = trades.get(c.hash);
            expect(tr, c.hash).to.not.equal(undefined);
            const buy = c.entrypoint === 'xtzToToken';
            const [baseMoved, quoteMoved] = buy ? [prev.token - now.token, now.tez - prev.tez] : [now.token - prev.token, prev.tez - now.tez];
            const amountIn = buy ? quoteMoved : baseMoved;
            const out = buy ? bought(amountIn, prev.tez, prev.token) : bought(amountIn, prev.token, prev.tez);
            const fee = amountIn - (amountIn * num) / den;
            expect([tr!.side, BigInt(tr!.base_volume), BigInt(tr!.quote_volume), BigInt(tr!.lp_fee), tr!.lp_fee_token], c.hash).to.deep.equal([buy ? 'buy' : 'sell', baseMoved, quoteMoved, fee, buy ? '1' : '0']);
            expect(buy ? baseMoved : quoteMoved, `${c.hash} curve`).to.equal(out);
            seen.add(c.entrypoint);
          }
          prev = now;
        }
        expect([...seen].sort(), 'both trade directions compared').to.deep.equal(['tokenToXtz', 'xtzToToken']);
      });

      it("positions hold each owner's change of the shares ledger since the pool was first seen", async () => {
        const ledger = spec.ledger(chain, contract);
        const want = ledgerChanges(chain, ledger, calls[0]);
        expect(calls.some((c) => c.entrypoint === 'addLiquidity' || c.entrypoint === 'removeLiquidity'), 'liquidity calls').to.equal(true);
        const positions = await readTable(t, 'dex_position', ['owner', 'shares'], `pool=${pool}`);
        const got = new Map(positions.map((p) => [p.owner, BigInt(p.shares)]));
        for (const owner of new Set([...want.keys(), ...got.keys()])) expect(got.get(owner) ?? 0n, owner).to.equal(want.get(owner) ?? 0n);
        const [row] = await readTable(t, 'dex_pool', ['token_lp'], `pool=${pool}`);
        expect(row.token_lp ?? '').to.equal(spec.tokenLp(ledger));
      });
    });
  }
});
