import { encodeOpHash } from '@taquito/utils';
import { expect } from 'chai';
import { BUILTIN_PLUGIN_DIR } from '../../framework/app/TzidxApp';
import type { Violation } from '../../framework/check/Reconciliation';
import { discoverPlugins } from '../../framework/plugins/PluginDiscovery';
import { PLENTY_POOL, plentyContent, plentyLabel } from '../defi-dex/support/plentyRecording';
import { carrierRawBlock } from '../indexer/support/templeGroups';
import { indexBlocks } from '../support/IndexHarness';
import { BACKEND } from '../support/TestDatabase';
import { startTestInstance, type TestInstance } from '../support/TestInstance';

/*
 * Why: a group that calls a pool once can record several events of it (the pool's creation, then the call's
 * deposit), all after that call. `dex.reserves` compared only the group's last event with the storage, so the
 * creation's reserves could be off the chain unseen (the Plenty volatile recordings: its supply_a one raw unit
 * under the storage was not reported). The recorded mainnet calls, indexed with no node, oracle the storages.
 */
const CALLS = ['AddLiquidity', 'Swap', 'RemoveLiquidity'];
const POOL = `${PLENTY_POOL}_0`;

describe(`tzidx check defi: every event of a group that called the pool once (${BACKEND})`, function () {
  this.timeout(300_000);
  let t: TestInstance;
  const reserves = async (): Promise<Violation[]> => {
    const out: Violation[] = [];
    for (const c of t.app.checks('defi').filter((x) => x.name === 'dex.reserves')) out.push(...(await c.run({})));
    return out.filter((v) => !v.notChecked);
  };
  const sql = async (text: string, bindings: unknown[] = []) =>
    (await t.app.db.writer.raw(text, bindings as never[])).rows as Record<string, unknown>[];
  const eventType = () => t.app.catalog.require('dex_event').column('event_type')!.type;
  /** The SQL literal of an event type, and the code it is stored as (an enum column holds the label's position). */
  const kind = (label: string): string => eventType().literal(label);
  const code = (label: string): string => String(eventType().parse(label));

  before(async () => {
    t = await startTestInstance({
      plugins: discoverPlugins([BUILTIN_PLUGIN_DIR]).filter((p) =>
        ['core-chain', 'defi-dex'].includes(p.manifest.name),
      ),
    });
    const groups = CALLS.map((e, i) => ({
      hash: encodeOpHash(plentyLabel(e)),
      contents: [plentyContent(e, 1000 + i)],
    }));
    await indexBlocks(t, [carrierRawBlock(groups)]);
  });
  after(async () => t?.close());

  it('finds no violation; the first group recorded the creation and the deposit', async () => {
    const events = await sql('select event_type, tx_hash from defi_dex.dex_event where pool = ? order by row_id', [
      POOL,
    ]);
    expect(events.map((e) => String(e.event_type))).to.deep.equal(['create', 'deposit', 'trade', 'withdraw'].map(code));
    expect(events[0].tx_hash).to.equal(events[1].tx_hash);
    expect(await reserves()).to.deep.equal([]);
  });

  it("the creation's reserve one raw unit off the storage after its group's call is reported", async () => {
    const [created] = await sql(`select row_id, tx_hash from defi_dex.dex_event where event_type = ${kind('create')}`);
    await sql('update defi_dex.dex_event set supply_a = supply_a - 1 where row_id = ?', [created.row_id]);
    try {
      const found = await reserves();
      expect(found.map((v) => [v.subject, v.op])).to.deep.equal([[POOL, created.tx_hash]]);
      expect(found[0].detail).to.match(/^after the group \(dex_event\): supply_a /);
    } finally {
      await sql('update defi_dex.dex_event set supply_a = supply_a + 1 where row_id = ?', [created.row_id]);
    }
  });

  it('a creation that holds an empty pool (a pool its call opened) is not a violation', async () => {
    const [created] = await sql(`select row_id from defi_dex.dex_event where event_type = ${kind('create')}`);
    const zero = 'supply_a = 0, supply_b = 0, supply_lp = 0';
    const saved = await sql('select supply_a, supply_b, supply_lp from defi_dex.dex_event where row_id = ?', [
      created.row_id,
    ]);
    await sql(`update defi_dex.dex_event set ${zero} where row_id = ?`, [created.row_id]);
    try {
      expect(await reserves()).to.deep.equal([]);
    } finally {
      const s = saved[0];
      await sql('update defi_dex.dex_event set supply_a = ?, supply_b = ?, supply_lp = ? where row_id = ?', [
        s.supply_a,
        s.supply_b,
        s.supply_lp,
        created.row_id,
      ]);
    }
  });
});
