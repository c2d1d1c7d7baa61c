import { expect } from 'chai';
import { YOUVES_FLAT_LABELS } from '../../../plugins/defi-dex/adapters/youves-flat/sandbox';
import { readTable } from '../../core-chain/support/tableReader';
import { flatCurveOut } from '../support/flatCurve';
import { ledgerChanges, leadingInts } from '../support/poolCalls';
import { sandboxPool } from '../support/sandboxPool';

const CTEZ = 'KT1SjXiUX63QvdNMcM2m492f7kuf8JxXRLp4';
const TZBTC = 'KT1PWx2mnDueood7fEmfbBDKx1D9BAnnXitn';
/** The flat CFMM's Newton steps (tezos-checker/flat-cfmm `tokensBought`/`cashBought`). */
const ROUNDS = 4;

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
  const run = sandboxPool('dex-flat', 140, ['defi-dex:youves-flat'], (chain) => chain.contracts.derivedAddress(YOUVES_FLAT_LABELS.pool));
  const { chain, pool: key } = run;

  it('declares the pool at its first call and records every call with the reserves of the storage after it', async () => {
    const events = (await readTable(run.t, 'dex_event', ['event_type', 'supply_a', 'supply_b', 'supply_lp', 'tx_hash'], `pool=${key}`)).filter((e) => e.event_type !== 'create' && e.event_type !== 'transfer');
    expect(run.calls.length, 'pool calls').to.be.greaterThan(3);
    expect(events.map((e) => e.tx_hash)).to.deep.equal(run.calls.map((c) => c.hash));
    run.calls.forEach((c, i) => {
      const s = poolStorage(c.storage);
      expect([events[i].supply_a, events[i].supply_b, events[i].supply_lp], c.hash).to.deep.equal([s.token, s.cash, s.lqt].map(String));
      const kind = { cashToToken: 'trade', tokenToCash: 'trade', addLiquidity: 'deposit', removeLiquidity: 'withdraw' }[c.entrypoint as string];
      expect(events[i].event_type, c.hash).to.equal(kind);
    });
    const s = poolStorage(run.calls[0].storage);
    const [row] = await readTable(run.t, 'dex_pool', ['entity', 'fees_bps', 'token_a', 'token_b'], `pool=${key}`);
    expect([row.entity, Number(row.fees_bps), row.token_a, row.token_b]).to.deep.equal(['youves_flat', Number((s.denominator - s.numerator) * 10000n) / Number(s.denominator), `${CTEZ}_0`, `${TZBTC}_0`]);
  });

  it('trades: amounts are the reserve moves, the output is the flat curve less the fee ratio, the fee is the rest', async () => {
    const trades = new Map((await readTable(run.t, 'dex_trade', ['side', 'base_volume', 'quote_volume', 'lp_fee', 'lp_fee_token', 'tx_hash'], `pool=${key}`)).map((r) => [r.tx_hash, r]));
    let prev = poolStorage(run.calls[0].storage);
    const seen = new Set<string>();
    for (const c of run.calls.slice(1)) {
      const now = poolStorage(c.storage);
      if (c.entrypoint === 'cashToToken' || c.entrypoint === 'tokenToCash') {
        const tr = trades.get(c.hash);
        expect(tr, c.hash).to.not.equal(undefined);
        const buy = c.entrypoint === 'cashToToken'; // cash (quote) in, token (base) out
        const [baseMoved, quoteMoved] = buy ? [prev.token - now.token, now.cash - prev.cash] : [now.token - prev.token, prev.cash - now.cash];
        // Independent curve: reserves and input scaled by the storage's multipliers, output scaled back.
        const [x, y, mIn, mOut, dx] = buy ? [prev.cash, prev.token, prev.cashMultiplier, prev.tokenMultiplier, quoteMoved] : [prev.token, prev.cash, prev.tokenMultiplier, prev.cashMultiplier, baseMoved];
        const gross = flatCurveOut(x * mIn, y * mOut, dx * mIn, ROUNDS) / mOut;
        const out = (gross * prev.numerator) / prev.denominator;
        expect(buy ? baseMoved : quoteMoved, `${c.hash} curve`).to.equal(out);
        expect([tr!.side, BigInt(tr!.base_volume), BigInt(tr!.quote_volume), BigInt(tr!.lp_fee), tr!.lp_fee_token], c.hash).to.deep.equal([buy ? 'buy' : 'sell', baseMoved, quoteMoved, gross - out, buy ? '0' : '1']);
        seen.add(c.entrypoint);
      }
      prev = now;
    }
    expect([...seen].sort(), 'both trade directions compared').to.deep.equal(['cashToToken', 'tokenToCash']);
  });

  it("positions hold each owner's change of the LQT token ledger since the pool was first seen", async () => {
    const lqt = chain.contracts.derivedAddress(YOUVES_FLAT_LABELS.lqt);
    const want = ledgerChanges(chain, lqt, run.calls[0]);
    expect(run.calls.some((c) => c.entrypoint === 'addLiquidity') && run.calls.some((c) => c.entrypoint === 'removeLiquidity'), 'liquidity calls').to.equal(true);
    const positions = await readTable(run.t, 'dex_position', ['owner', 'shares'], `pool=${key}`);
    const got = new Map(positions.map((p) => [p.owner, BigInt(p.shares)]));
    for (const owner of new Set([...want.keys(), ...got.keys()])) expect(got.get(owner) ?? 0n, owner).to.equal(want.get(owner) ?? 0n);
    const [row] = await readTable(run.t, 'dex_pool', ['token_lp'], `pool=${key}`);
    expect(row.token_lp).to.equal(`${lqt}_0`);
  });
});
