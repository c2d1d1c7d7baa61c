import { expect } from 'chai';
import { PLENTY_LABELS } from '../../../plugins/defi-dex/adapters/plenty/sim/sandbox';
import { canonical } from '../../support/IndexHarness';
import { readTable } from '../../core-chain/support/tableReader';
import { ledgerChanges, leadingInts } from '../support/poolCalls';
import { sandboxPool } from '../support/sandboxPool';

describe('defi-dex: a Plenty volatile pool on the sandbox chain', function () {
  this.timeout(240_000);
  const run = sandboxPool('dex-plenty', 200, ['defi-dex:plenty', 'defi-farm:plenty'], (chain) =>
    chain.contracts.derivedAddress(PLENTY_LABELS.pool),
  );
  const { chain, pool } = run;

  it('records every pool call with the reserves of the storage after it', async () => {
    const events = (
      await readTable(
        run.t,
        'dex_event',
        ['event_type', 'supply_a', 'supply_b', 'supply_lp', 'tx_hash'],
        `pool=${pool}`,
      )
    ).filter((e) => e.event_type !== 'create' && e.event_type !== 'transfer');
    expect(run.calls.length, 'pool calls').to.be.greaterThan(3);
    expect(events.map((e) => e.tx_hash)).to.deep.equal(run.calls.map((c) => c.hash));
    run.calls.forEach((c, i) =>
      expect([events[i].supply_a, events[i].supply_b, events[i].supply_lp], c.hash).to.deep.equal(
        leadingInts(c.storage).map(String),
      ),
    );
    const [row] = await readTable(run.t, 'dex_pool', ['entity', 'fees_bps'], `pool=${pool}`);
    expect([row.entity, row.fees_bps]).to.deep.equal(['plenty_v1', (10000 / 290).toFixed(2)]);
  });

  it('swaps: the reserves move by the traded amounts, the fee is amountIn/290 of the input', async () => {
    const trades = new Map(
      (
        await readTable(
          run.t,
          'dex_trade',
          ['side', 'base_volume', 'quote_volume', 'lp_fee', 'lp_fee_token', 'tx_hash'],
          `pool=${pool}`,
        )
      ).map((r) => [r.tx_hash, r]),
    );
    let prev = leadingInts(run.calls[0].storage);
    let checked = 0;
    for (const c of run.calls.slice(1)) {
      const now = leadingInts(c.storage);
      const tr = trades.get(c.hash);
      if (tr && c.entrypoint === 'Swap') {
        const buy = now[1] > prev[1]; // token B (quote) went in
        const [baseMoved, quoteMoved] = buy
          ? [prev[0] - now[0], now[1] - prev[1]]
          : [now[0] - prev[0], prev[1] - now[1]];
        const amountIn = buy ? quoteMoved : baseMoved;
        expect(
          [tr.side, BigInt(tr.base_volume), BigInt(tr.quote_volume), BigInt(tr.lp_fee), tr.lp_fee_token],
          c.hash,
        ).to.deep.equal([buy ? 'buy' : 'sell', baseMoved, quoteMoved, amountIn / 290n, buy ? '1' : '0']);
        checked++;
      }
      prev = now;
    }
    expect(checked, 'swaps compared').to.be.greaterThan(0);
  });

  it("positions hold each owner's change of the LP token ledger since the pool was first seen (mints, burns, transfers)", async () => {
    // Oracle: the LP token's raw ledger big map diffs (its transfers are the Plenty farm's stakes).
    const lp = chain.contracts.derivedAddress(PLENTY_LABELS.lp);
    const want = ledgerChanges(chain, lp, run.calls[0]);
    const firstLevel = canonical(chain).find((b) => b.operations.some((o) => o.hash === run.calls[0].hash))!.level;
    const transfers = canonical(chain)
      .filter((b) => b.level >= firstLevel)
      .flatMap((b) => b.operations)
      .filter((o) => o.receiver === lp && o.isSuccess && o.entrypoint === 'transfer').length;
    const positions = await readTable(
      run.t,
      'dex_position',
      ['owner', 'shares', 'shares_sent', 'shares_received'],
      `pool=${pool}`,
    );
    expect(transfers, 'LP token transfers (farm stakes) after the pool was first seen').to.be.greaterThan(0);
    expect(
      positions.some((p) => p.shares_received !== '0') && positions.some((p) => p.shares_sent !== '0'),
      'transfers recorded',
    ).to.equal(true);
    const got = new Map(positions.map((p) => [p.owner, BigInt(p.shares)]));
    for (const owner of new Set([...want.keys(), ...got.keys()]))
      expect(got.get(owner) ?? 0n, owner).to.equal(want.get(owner) ?? 0n);
    const [row] = await readTable(run.t, 'dex_pool', ['token_lp'], `pool=${pool}`);
    expect(row.token_lp).to.equal(`${lp}_0`);
  });
});
