import { expect } from 'chai';
import { YOUVES_FLAT_LABELS } from '../../../plugins/defi-dex/adapters/youves-flat/sim/sandbox';
import { readTable } from '../../core-chain/support/tableReader';
import { flatCurveOut } from '../support/flatCurve';
import { ledgerChanges, leadingInts } from '../support/poolCalls';
import { sandboxPool } from '../support/sandboxPool';

const CTEZ = 'KT1SjXiUX63QvdNMcM2m492f7kuf8JxXRLp4';
const TZBTC = 'KT1PWx2mnDueood7fEmfbBDKx1D9BAnnXitn';
/**
 * The Newton steps of Youves' flat CFMM: youves-com/youves-smart-contract contracts/swap/fa12_flat_cfmm.mligo
 * (`tokensBought`/`cashBought`, `n = 5`) at 750af577d178a5778d5b49ce9127a94913c75e23.
 */
const NEWTON_ROUNDS = 5;

/** The first address of a call's raw parameter: `to` of `cashToToken`/`tokenToCash`. */
function firstAddress(raw: unknown): string | undefined {
  const node = raw as { string?: string; args?: unknown[] } | undefined;
  return node?.string ?? node?.args?.map(firstAddress).find((a) => a !== undefined);
}

/**
 * The pool's raw storage: Pair(tokenPool, cashPool, lqtTotal, pendingPoolUpdates, tokenAddress,
 * cashAddress, lqtAddress, cashMultiplier, tokenMultiplier, Pair(numerator, denominator), …); the
 * addresses are bytes, so the ints come in this order.
 */
function poolStorage(storage: unknown) {
  const [token, cash, lqt, , cashMultiplier, tokenMultiplier, numerator, denominator] = leadingInts(storage, 8);
  return { token, cash, lqt, cashMultiplier, tokenMultiplier, numerator, denominator };
}

describe('defi-dex: a Youves flat-curve pool on the sandbox chain', function () {
  this.timeout(240_000);
  const run = sandboxPool('dex-flat', 140, ['defi-dex:youves-flat'], (chain) =>
    chain.contracts.derivedAddress(YOUVES_FLAT_LABELS.pool),
  );
  const { chain, pool: key } = run;

  it('declares the pool at its first call and records every call with the reserves of the storage after it', async () => {
    const events = (
      await readTable(run.t, 'dex_event', ['event_type', 'supply_a', 'supply_b', 'supply_lp', 'tx_hash'], `pool=${key}`)
    ).filter((e) => e.event_type !== 'create' && e.event_type !== 'transfer');
    expect(run.calls.length, 'pool calls').to.be.greaterThan(3);
    expect(events.map((e) => e.tx_hash)).to.deep.equal(run.calls.map((c) => c.hash));
    run.calls.forEach((c, i) => {
      const s = poolStorage(c.storage);
      expect([events[i].supply_a, events[i].supply_b, events[i].supply_lp], c.hash).to.deep.equal(
        [s.token, s.cash, s.lqt].map(String),
      );
      const kind = { cashToToken: 'trade', tokenToCash: 'trade', addLiquidity: 'deposit', removeLiquidity: 'withdraw' }[
        c.entrypoint as string
      ];
      expect(events[i].event_type, c.hash).to.equal(kind);
    });
    const s = poolStorage(run.calls[0].storage);
    const [row] = await readTable(run.t, 'dex_pool', ['entity', 'fees_bps', 'token_a', 'token_b'], `pool=${key}`);
    expect([row.entity, Number(row.fees_bps), row.token_a, row.token_b]).to.deep.equal([
      'youves_flat',
      Number((s.denominator - s.numerator) * 10000n) / Number(s.denominator),
      `${CTEZ}_0`,
      `${TZBTC}_0`,
    ]);
  });

  it('trades: the receiver gets ⌊num·W/den⌋ of the curve output W, the reward recipient half the rest', async () => {
    const fees = ['lp_fee', 'incentive_fee', 'lp_fee_token', 'incentive_fee_token'];
    const columns = ['side', 'base_volume', 'quote_volume', ...fees, 'receiver', 'tx_hash'];
    const trades = new Map((await readTable(run.t, 'dex_trade', columns, `pool=${key}`)).map((r) => [r.tx_hash, r]));
    let prev = poolStorage(run.calls[0].storage);
    const seen = new Set<string>();
    for (const c of run.calls.slice(1)) {
      const now = poolStorage(c.storage);
      if (c.entrypoint === 'cashToToken' || c.entrypoint === 'tokenToCash') {
        const tr = trades.get(c.hash);
        expect(tr, c.hash).to.not.equal(undefined);
        const buy = c.entrypoint === 'cashToToken'; // cash (quote) in, token (base) out
        // The pool keeps all the input; the output side loses what the receiver and the reward recipient got.
        const amountIn = buy ? now.cash - prev.cash : now.token - prev.token;
        const outLeft = buy ? prev.token - now.token : prev.cash - now.cash;
        // The contract's own arithmetic, written from its source: reserves and input times the multipliers.
        const [x, y, mIn, mOut] = buy
          ? [prev.cash, prev.token, prev.cashMultiplier, prev.tokenMultiplier]
          : [prev.token, prev.cash, prev.tokenMultiplier, prev.cashMultiplier];
        const w = flatCurveOut(x * mIn, y * mOut, amountIn * mIn, NEWTON_ROUNDS) / mOut;
        const paid = (w * prev.numerator) / prev.denominator;
        const reward = (w - paid) / 2n;
        expect(outLeft, `${c.hash} output side of the reserves`).to.equal(paid + reward);
        // The pool keeps W − paid − reward; read from what moved, the smaller W is taken when W − 1 pays as much.
        const paysAsMuch = ((w - 1n) * prev.numerator) / prev.denominator === paid;
        const tie = w - 1n - paid >= 0n && paysAsMuch && (w - 1n - paid) / 2n === reward;
        const kept = w - paid - reward - (tie ? 1n : 0n);
        const amounts = [tr!.base_volume, tr!.quote_volume, tr!.lp_fee, tr!.incentive_fee].map((v) => BigInt(`${v}`));
        const got = [tr!.side, ...amounts, tr!.lp_fee_token, tr!.incentive_fee_token, tr!.receiver];
        const token = buy ? '0' : '1';
        const [base, quote] = buy ? [paid, amountIn] : [amountIn, paid];
        const receiver = firstAddress(c.parameters);
        expect(got, c.hash).to.deep.equal([buy ? 'buy' : 'sell', base, quote, kept, reward, token, token, receiver]);
        seen.add(c.entrypoint);
        if (reward > 0n && kept > reward) seen.add('odd fee split');
      }
      prev = now;
    }
    const want = ['cashToToken', 'odd fee split', 'tokenToCash'];
    expect([...seen].sort(), 'both trade directions and an odd fee split compared').to.deep.equal(want);
  });

  it("positions hold each owner's change of the LQT token ledger since the pool was first seen", async () => {
    const lqt = chain.contracts.derivedAddress(YOUVES_FLAT_LABELS.lqt);
    const want = ledgerChanges(chain, lqt, run.calls[0]);
    expect(
      run.calls.some((c) => c.entrypoint === 'addLiquidity') &&
        run.calls.some((c) => c.entrypoint === 'removeLiquidity'),
      'liquidity calls',
    ).to.equal(true);
    const positions = await readTable(run.t, 'dex_position', ['owner', 'shares'], `pool=${key}`);
    const got = new Map(positions.map((p) => [p.owner, BigInt(p.shares)]));
    for (const owner of new Set([...want.keys(), ...got.keys()]))
      expect(got.get(owner) ?? 0n, owner).to.equal(want.get(owner) ?? 0n);
    const [row] = await readTable(run.t, 'dex_pool', ['token_lp'], `pool=${key}`);
    expect(row.token_lp).to.equal(`${lqt}_0`);
  });
});
