import { expect } from 'chai';
import { BUILTIN_PLUGIN_DIR } from '../../framework/app/TzidxApp';
import type { RawBlock } from '../../framework/chain/model/RawBlock';
import type { Violation } from '../../framework/check/Reconciliation';
import { discoverPlugins } from '../../framework/plugins/PluginDiscovery';
import { DatabaseBaseline } from '../support/DatabaseReset';
import { readFixtureJson } from '../support/fixtures';
import { indexBlocks, MemoryBlockSource } from '../support/IndexHarness';
import { scriptExpr } from '../../framework/michelson/ScriptExpr';
import { carrierRawBlock, TEMPLE_HASHES, templeContents } from '../indexer/support/templeGroups';
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

/**
 * The tokens of the QuipuSwap v2 pairs the Temple groups swap on (DexCore's `tokens` big map, which the groups do
 * not touch): what a node answers for them. They are the tokens the recorded transfers move.
 */
const CORE = 'KT1J8Hr3BP8bpbfmgGpRPoC9nAMSYtStZG43';
const SPICY = 'KT1HHZnspZoRZgtFns5LHYHFkXgQ1WGPrxFr';
const PAIR_TOKENS: Record<number, [string, string]> = {
  133: ['fa2 KT1K9EjmMZ3TB3qTZiZYjXLT4kHtFnc6ug5T', 'tez'],
  182: ['fa12 KT1K9gCRgaLRFKTErYt1wVxA3Frb9FjasjTV', 'fa2 KT1K9EjmMZ3TB3qTZiZYjXLT4kHtFnc6ug5T'],
  135: ['fa2 KT1PnUZCp3u2KzWr93pn4DD7HAJnm3rWVrgn', 'fa2 KT1UQVEDf4twF2eMbrCKQAxN7YYunTAiCTTm'],
};
const michelineToken = (t: string): unknown => {
  const [standard, address] = t.split(' ');
  if (standard === 'tez') return { prim: 'Right', args: [{ prim: 'Unit' }] };
  const fa =
    standard === 'fa12'
      ? { prim: 'Left', args: [{ string: address }] }
      : { prim: 'Right', args: [{ prim: 'Pair', args: [{ string: address }, { int: '0' }] }] };
  return { prim: 'Left', args: [fa] };
};

/** The Temple groups in one block, with a node that knows only the v2 pairs' tokens. */
class TempleSource extends MemoryBlockSource {
  constructor() {
    super([
      carrierRawBlock(Object.entries(TEMPLE_HASHES).map(([name, hash]) => ({ hash, contents: templeContents(name) }))),
    ]);
  }
  async blockRpc(_level: number, path: string): Promise<unknown> {
    for (const [id, [a, b]] of Object.entries(PAIR_TOKENS))
      if (path.endsWith(`/${scriptExpr({ int: id }, { prim: 'nat' })}`) && path.startsWith('context/big_maps/'))
        return { prim: 'Pair', args: [michelineToken(a), michelineToken(b)] };
    return undefined;
  }
}
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

describe(`tzidx check defi: big-map and multi-pool DEX records against the chain, Temple groups (${BACKEND})`, function () {
  this.timeout(300_000);
  const V2 = [133, 182, 135].map((id) => `${CORE}_${id}`);
  const SPICY_POOL = `${SPICY}_0`;
  const start = async (plugins: readonly string[]): Promise<TestInstance> => {
    const t = await startTestInstance({
      plugins: discoverPlugins([BUILTIN_PLUGIN_DIR]).filter((p) => plugins.includes(p.manifest.name)),
    });
    await t.app.startIndexer(new TempleSource(), { retryDelayMs: 10 });
    return t;
  };
  const run = async (t: TestInstance): Promise<Violation[]> => {
    const out: Violation[] = [];
    for (const c of t.app.checks('defi').filter((x) => CHECKS.includes(x.name))) out.push(...(await c.run({})));
    return out;
  };
  const sql = async (t: TestInstance, text: string, bindings: unknown[] = []) =>
    (await t.app.db.writer.raw(text, bindings as never[])).rows as Record<string, unknown>[];
  /** The stored form of an event type (an enum column holds the label's position). */
  const trades = (t: TestInstance): string =>
    t.app.catalog.require('dex_event').column('event_type')!.type.literal('trade');

  describe('with the bigmaps plugin', () => {
    let t: TestInstance;
    before(async () => (t = await start([...DEFI, 'bigmaps'])));
    after(async () => t?.close());

    it('finds no violation; the v2 pairs (big map) and the Spicy pair are read, routes checked as a whole', async () => {
      // Premise: the groups' pools and trades were indexed (the route's two hops, the arbitrage's pair 135 and Spicy).
      const traded = await sql(t, 'select distinct pool from defi_dex.dex_trade order by pool');
      expect(traded.map((r) => r.pool)).to.include.members([...V2, SPICY_POOL]);
      const all = await run(t);
      expect(all.map((v) => `${v.check} ${v.subject} @${v.height} ${v.op}: ${v.detail}`)).to.deep.equal([]);
    });

    it("a v2 pair's reserve one raw unit off its big map entry is reported, after the group and now", async () => {
      const [event] = await sql(
        t,
        `select row_id, pool, tx_hash, height from defi_dex.dex_event where pool = ? and event_type = ${trades(t)}`,
        [V2[1]],
      );
      await sql(t, 'update defi_dex.dex_event set supply_a = supply_a + 1 where row_id = ?', [event.row_id]);
      await sql(t, 'update defi_dex.dex_pool set supply_lp = supply_lp - 1 where pool = ?', [V2[2]]);
      try {
        const found = (await run(t)).filter((v) => !v.notChecked);
        expect(found.map((v) => [v.check, v.subject, v.op ?? null, v.detail.split(':')[0]])).to.have.deep.members([
          ['dex.reserves', V2[1], event.tx_hash, 'after the group (dex_event)'],
          ['dex.reserves', V2[2], null, 'now (dex_pool)'],
        ]);
        for (const v of found) expect(v.detail).to.match(/its big map entry has/);
      } finally {
        await sql(t, 'update defi_dex.dex_event set supply_a = supply_a - 1 where row_id = ?', [event.row_id]);
        await sql(t, 'update defi_dex.dex_pool set supply_lp = supply_lp + 1 where pool = ?', [V2[2]]);
      }
    });

    it("a route hop's amount, and the Spicy pair's reserve, one raw unit off are reported", async () => {
      const [hop] = await sql(t, 'select row_id, tx_hash, height from defi_dex.dex_trade where pool = ?', [V2[1]]);
      const [spicy] = await sql(
        t,
        `select row_id, tx_hash from defi_dex.dex_event where pool = ? and event_type = ${trades(t)}`,
        [SPICY_POOL],
      );
      await sql(t, 'update defi_dex.dex_trade set quote_volume = quote_volume + 1 where row_id = ?', [hop.row_id]);
      await sql(t, 'update defi_dex.dex_event set supply_b = supply_b + 1 where row_id = ?', [spicy.row_id]);
      try {
        const found = (await run(t)).filter((v) => !v.notChecked).map((v) => [v.check, v.subject, v.op]);
        // The route's two hops on DexCore are held to the group's moves together.
        expect(found).to.have.deep.members([
          ['dex.trade_moves', `${V2[0]} ${V2[1]}`, hop.tx_hash],
          ['dex.reserves', SPICY_POOL, spicy.tx_hash],
        ]);
      } finally {
        await sql(t, 'update defi_dex.dex_trade set quote_volume = quote_volume - 1 where row_id = ?', [hop.row_id]);
        await sql(t, 'update defi_dex.dex_event set supply_b = supply_b - 1 where row_id = ?', [spicy.row_id]);
      }
    });
  });

  it('without the bigmaps plugin, the v2 pairs are not checked, and say why', async () => {
    const t = await start(DEFI);
    try {
      const all = await run(t);
      expect(all.filter((v) => !v.notChecked)).to.deep.equal([]);
      expect(all.filter((v) => v.notChecked).map((v) => [v.check, v.subject, v.detail])).to.have.deep.members(
        V2.map((p) => [
          'dex.reserves',
          p,
          'not checked: its values are in a big map and the bigmaps plugin is not enabled',
        ]),
      );
    } finally {
      await t.close();
    }
  });
});
