import { expect } from 'chai';
import { BUILTIN_PLUGIN_DIR } from '../../../framework/app/TzidxApp';
import type { NormalizedOperation } from '../../../framework/chain';
import { discoverPlugins } from '../../../framework/plugins/PluginDiscovery';
import { SandboxChain } from '../../../framework/sandbox';
import { PLENTY_LABELS } from '../../../plugins/defi-dex/adapters/plenty/sandbox';
import { canonical, indexSandbox } from '../../support/IndexHarness';
import { startTestInstance, TestInstance } from '../../support/TestInstance';
import { readTable } from '../../core-chain/support/tableReader';
import { callsTo, ledgerChanges, leadingInts } from '../support/poolCalls';

describe('defi-dex: a Plenty volatile pool on the sandbox chain', function () {
  this.timeout(240_000);
  const chain = new SandboxChain({ seed: 'dex-plenty', profile: 'tiny' });
  const contract = chain.contracts.derivedAddress(PLENTY_LABELS.pool);
  const pool = `${contract}_0`;
  let t: TestInstance;
  let calls: NormalizedOperation[];
  before(async () => {
    t = await startTestInstance({ plugins: discoverPlugins([BUILTIN_PLUGIN_DIR]) });
    chain.bakeTo(200);
    await indexSandbox(t, chain);
    calls = callsTo(chain, contract);
  });
  after(() => t?.close());

  it('records every pool call with the reserves of the storage after it', async () => {
    const events = (await readTable(t, 'dex_event', ['event_type', 'supply_a', 'supply_b', 'supply_lp', 'tx_hash'], `pool=${pool}`)).filter((e) => e.event_type !== 'create' && e.event_type !== 'transfer');
    expect(calls.length, 'pool calls').to.be.greaterThan(3);
    expect(events.map((e) => e.tx_hash)).to.deep.equal(calls.map((c) => c.hash));
    calls.forEach((c, i) => expect([events[i].supply_a, events[i].supply_b, events[i].supply_lp], c.hash).to.deep.equal(leadingInts(c.storage).map(String)));
    const [row] = await readTable(t, 'dex_pool', ['entity', 'fees_bps'], `pool=${pool}`);
    expect([row.entity, row.fees_bps]).to.deep.equal(['plenty_v1', (10000 / 290).toFixed(2)]);
  });

  it('swaps: the reserves move by the traded amounts, the fee is amountIn/290 of the input', async () => {
    const trades = new Map((await readTable(t, 'dex_trade', ['side', 'base_volume', 'quote_volume', 'lp_fee', 'lp_fee_token', 'tx_hash'], `pool=${pool}`)).map((r) => [r.tx_hash, r]));
    let prev = leadingInts(calls[0].storage);
    let checked = 0;
    for (const c of calls.slice(1)) {
      const now = leadingInts(c.storage);
      const tr = trades.get(c.hash);
      if (tr && c.entrypoint === 'Swap') {
        const buy = now[1] > prev[1]; // token B (quote) went in
        const [baseMoved, quoteMoved] = buy ? [prev[0] - now[0], now[1] - prev[1]] : [now[0] - prev[0], prev[1] - now[1]];
        const amountIn = buy ? quoteMoved : baseMoved;
        expect([tr.side, BigInt(tr.base_volume), BigInt(tr.quote_volume), BigInt(tr.lp_fee), tr.lp_fee_token], c.hash).to.deep.equal([buy ? 'buy' : 'sell', baseMoved, quoteMoved, amountIn / 290n, buy ? '1' : '0']);
        checked++;
      }
      prev = now;
    }
    expect(checked, 'swaps compared').to.be.greaterThan(0);
  });

  it('positions hold each owner\'s change of the LP token ledger since the pool was first seen (mints, burns, transfers)', async () => {
    // Oracle: the LP token's raw ledger big map diffs, counted from the first pool call's block on, the
    // first call's own mint aside (a pool first met at a call is declared with the storage after it).
    const lp = chain.contracts.derivedAddress(PLENTY_LABELS.lp);
    const first = calls[0];
    const blocks = canonical(chain);
    // The token's storage is (ledger, totalSupply, metadata): its first int is the ledger's big map id.
    const lpCall = blocks.flatMap((b) => b.operations).find((o) => o.receiver === lp && o.storage !== undefined)!;
    const ledgerId = Number(leadingInts(lpCall.storage, 1)[0]);
    const firstLevel = blocks.find((b) => b.operations.some((o) => o.hash === first.hash))!.level;
    const transfers = blocks.filter((b) => b.level >= firstLevel).flatMap((b) => b.operations).filter((o) => o.receiver === lp && o.isSuccess && o.entrypoint === 'transfer').length;
    const want = ledgerChanges(chain, ledgerId, firstLevel, first.hash);
    const positions = await readTable(t, 'dex_position', ['owner', 'shares', 'shares_sent', 'shares_received'], `pool=${pool}`);
    expect(transfers, 'LP token transfers (farm stakes) after the pool was first seen').to.be.greaterThan(0);
    expect(positions.some((p) => p.shares_received !== '0') && positions.some((p) => p.shares_sent !== '0'), 'transfers recorded').to.equal(true);
    const got = new Map(positions.map((p) => [p.owner, BigInt(p.shares)]));
    for (const owner of new Set([...want.keys(), ...got.keys()])) expect(got.get(owner) ?? 0n, owner).to.equal(want.get(owner) ?? 0n);
    const [row] = await readTable(t, 'dex_pool', ['token_lp'], `pool=${pool}`);
    expect(row.token_lp).to.equal(`${lp}_0`);
  });
});
