import { expect } from 'chai';
import { BUILTIN_PLUGIN_DIR } from '../../framework/app/TzidxApp';
import type { RawBlock } from '../../framework/chain/model/RawBlock';
import type { Violation } from '../../framework/check/Reconciliation';
import { discoverPlugins } from '../../framework/plugins/PluginDiscovery';
import { DatabaseBaseline } from '../support/DatabaseReset';
import { readFixtureJson } from '../support/fixtures';
import { indexBlocks } from '../support/IndexHarness';
import { BACKEND } from '../support/TestDatabase';
import { startTestInstance, type TestInstance } from '../support/TestInstance';

/*
 * Why: `dex.reserves` and `dex.trade_moves` hold the DEX records to the chain's own data (the storage after each
 * call, the op rows' tez and token transfers) over the real mainnet blocks the archive test indexes
 * (archiveMainnet.test.ts: QuipuSwap v1 and Dexter in 1621538, QuipuSwap v1 `use` in 1676122, Liquidity Baking in
 * 2490368), each indexed as a first block with no node. A record one raw unit off the chain is reported with its
 * block and operation.
 */
const DEFI = ['core-chain', 'defi-dex'];
const BLOCKS = [
  ['legacy-pre-ithaca/mainnet', 1621538],
  ['legacy-pre-ithaca/mainnet', 1676122],
  ['mainnet', 2490368],
] as const;
const CHECKS = ['dex.reserves', 'dex.trade_moves'];
const LB = 'KT1TxqZ8QtKvLu3V3JH7Gx58n7Co8pgtpQU5_0';

describe(`tzidx check defi: DEX records against the chain on real mainnet blocks (${BACKEND})`, function () {
  this.timeout(300_000);
  let t: TestInstance;
  let baseline: DatabaseBaseline;
  const run = async (): Promise<Violation[]> => {
    const out: Violation[] = [];
    for (const c of t.app.checks('defi').filter((x) => CHECKS.includes(x.name))) out.push(...(await c.run({})));
    return out;
  };
  const eventType = (label: string): string =>
    t.app.catalog.require('dex_event').column('event_type')!.type.literal(label);
  const sql = async (text: string, bindings: unknown[] = []) =>
    (await t.app.db.writer.raw(text, bindings as never[])).rows as Record<string, unknown>[];

  before(async () => {
    t = await startTestInstance({
      plugins: discoverPlugins([BUILTIN_PLUGIN_DIR]).filter((p) => DEFI.includes(p.manifest.name)),
    });
    baseline = await DatabaseBaseline.take(t);
  });
  after(async () => t?.close());

  for (const [dir, level] of BLOCKS) {
    describe(`block ${level}`, () => {
      before(async () => {
        await baseline.restore(t);
        const raw = readFixtureJson('tezos-rpc', 'blocks', ...dir.split('/'), `mainnet-${level}.json`);
        await indexBlocks(t, [raw as RawBlock]);
      });

      it('finds no violation; every pool called in the block is read from its storage', async () => {
        const all = await run();
        // Premise: the block's pools and trades were indexed (an empty index would pass trivially).
        expect((await sql('select count(*) as n from defi_dex.dex_trade'))[0].n).to.not.equal('0');
        const found = all.filter((v) => !v.notChecked);
        expect(found.map((v) => `${v.check} ${v.subject} @${v.height} ${v.op}: ${v.detail}`)).to.deep.equal([]);
        // Only the LB CPMM where the block has no call of it, only its subsidy: core-chain keeps no storage of an
        // implicit result for a contract it has no row of (an archive), so there is nothing to compare with.
        expect(all.filter((v) => v.notChecked).map((v) => [v.check, v.subject, v.detail])).to.deep.equal(
          level === 2490368 ? [] : [['dex.reserves', LB, 'not checked: no storage kept']],
        );
      });

      it('a trade, and an event reserve, one raw unit off are reported with block and operation', async () => {
        const [trade] = await sql(
          'select row_id, pool, tx_hash, height from defi_dex.dex_trade order by row_id limit 1',
        );
        const [event] = await sql(
          `select row_id, pool, tx_hash, height from defi_dex.dex_event where event_type = ${eventType('trade')}
            order by row_id desc limit 1`,
        );
        await sql('update defi_dex.dex_trade set base_volume = base_volume + 1 where row_id = ?', [trade.row_id]);
        await sql('update defi_dex.dex_event set supply_b = supply_b - 1 where row_id = ?', [event.row_id]);
        try {
          const found = (await run()).filter((v) => !v.notChecked).map((v) => [v.check, v.subject, v.height, v.op]);
          expect(found).to.have.deep.members([
            ['dex.trade_moves', trade.pool, level, trade.tx_hash],
            ['dex.reserves', event.pool, level, event.tx_hash],
          ]);
        } finally {
          await sql('update defi_dex.dex_trade set base_volume = base_volume - 1 where row_id = ?', [trade.row_id]);
          await sql('update defi_dex.dex_event set supply_b = supply_b + 1 where row_id = ?', [event.row_id]);
        }
      });

      it("a pool's reserve one raw unit off its contract's latest storage is reported", async () => {
        const [pool] = await sql(
          `select pool, update_height from defi_dex.dex_pool
            where pool in (select pool from defi_dex.dex_event) order by pool limit 1`,
        );
        await sql('update defi_dex.dex_pool set supply_lp = supply_lp + 1 where pool = ?', [pool.pool]);
        try {
          const found = (await run()).filter((v) => v.check === 'dex.reserves' && !v.notChecked);
          expect(found.map((v) => [v.subject, v.height])).to.deep.equal([[pool.pool, Number(pool.update_height)]]);
          expect(found[0].detail).to.match(/^now .*supply_lp/);
        } finally {
          await sql('update defi_dex.dex_pool set supply_lp = supply_lp - 1 where pool = ?', [pool.pool]);
        }
      });
    });
  }
});
