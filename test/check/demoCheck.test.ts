import { expect } from 'chai';
import { BUILTIN_PLUGIN_DIR } from '../../framework/app/TzidxApp';
import type { Violation } from '../../framework/check/Reconciliation';
import { discoverPlugins } from '../../framework/plugins/PluginDiscovery';
import { PROFILES, SandboxChain } from '../../framework/sandbox';
import { expectOriginatorsAsCreators } from '../support/chainOriginations';
import { indexSandbox } from '../support/IndexHarness';
import { BACKEND } from '../support/TestDatabase';
import { startTestInstance, type TestInstance } from '../support/TestInstance';

/**
 * The DeFi plugins `npm start` runs, and the bigmaps plugin whose updates hold the big-map pools' reserves (QuipuSwap
 * v2, StableSwap), indexed once: every family's checks hold over the same history.
 */
const DEFI = ['core-chain', 'bigmaps', 'defi-dex', 'defi-farm', 'defi-lending'];
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

/**
 * Why: `tzidx check defi` must find nothing wrong in the DEX tables of the chain `npm start` indexes
 * (seed `tzidx`, profile `demo`, its whole history, the DeFi plugins), where every pool but Liquidity Baking starts
 * empty and is filled by operations the chain shows, the early providers' deposits first (docs/defi-dex.md,
 * Reconciliation). Any violation of any family fails the test, and it names them.
 */
describe(`tzidx check defi over the demo chain: no violation (${BACKEND})`, function () {
  // About a minute on an idle machine; far more on a loaded one.
  this.timeout(3_600_000);
  let t: TestInstance;
  let found: Violation[];
  const chain = new SandboxChain({ seed: 'tzidx', profile: 'demo' });

  before(async () => {
    chain.bakeTo(PROFILES.demo.historyBlocks);
    t = await startTestInstance({
      plugins: discoverPlugins([BUILTIN_PLUGIN_DIR]).filter((p) => DEFI.includes(p.manifest.name)),
    });
    await indexSandbox(t, chain);
    found = [];
    for (const c of t.app.checks('defi')) found.push(...(await c.run({})));
  });
  after(async () => t?.close());

  it('indexed the demo pools, positions and trades', async () => {
    const count = async (table: string) =>
      Number((await t.app.db.reader.raw(`select count(*) as n from defi_dex.${table}`)).rows[0].n);
    // Every simulated DEX family, with traffic: an empty index would pass the checks trivially.
    expect(await count('dex_pool')).to.be.at.least(16);
    expect(await count('dex_position')).to.be.at.least(100);
    expect(await count('dex_trade')).to.be.at.least(1000);
  });

  const get = async (path: string): Promise<Json[]> => {
    const res = await t.get(path);
    expect(res.status, path).to.equal(200);
    return (await res.json()) as Json[];
  };

  it("names as every farm and lending pool's creator the account whose operation originated its contract", async () => {
    const pools = [...(await get('/v1/farm?limit=1000')), ...(await get('/v1/lend?limit=1000'))];
    expect(pools.length).to.be.at.least(8);
    expectOriginatorsAsCreators(chain, pools);
  });

  it('sets stake_id on every farm and lending event and position', async () => {
    for (const table of [
      'defi_farm.farm_event',
      'defi_farm.farm_position',
      'defi_lending.lend_event',
      'defi_lending.lend_position',
    ]) {
      const { rows } = await t.app.db.reader.raw(`select count(*) as n, count(stake_id) as with_id from ${table}`);
      expect(Number(rows[0].n), table).to.be.greaterThan(0);
      expect(Number(rows[0].with_id), table).to.equal(Number(rows[0].n));
    }
  });

  it('filters lending events by `address` on signer, sender or receiver and by `owner` on the owner', async () => {
    const { rows } = await t.app.db.reader.raw(
      `select row_id, pool, owner from defi_lending.lend_event
        where owner <> signer and owner <> sender and owner <> receiver order by row_id limit 5`,
    );
    // Liquidations move the borrower's position by another account's call.
    expect(rows.length).to.be.greaterThan(0);
    for (const r of rows as Json[]) {
      const ids = async (filter: string) =>
        (await get(`/v1/lend/${r.pool}/events?${filter}=${r.owner}&limit=100000`)).map((e) => String(e.id));
      expect(await ids('address')).to.not.include(String(r.row_id));
      expect(await ids('owner')).to.include(String(r.row_id));
    }
  });

  it('finds no violation of any DEX, farm or lending check; prints what was not checked (docs/defi-dex.md)', () => {
    const skipped = new Map<string, string[]>();
    for (const v of found.filter((v) => v.notChecked))
      skipped.set(v.check, [
        ...(skipped.get(v.check) ?? []),
        `${v.subject} (${v.detail.replace(/^not checked: /, '')})`,
      ]);
    for (const [check, pools] of skipped)
      console.log(`      not checked by ${check} (${pools.length}): ${pools.join(', ')}`);
    const violations = found.filter((v) => !v.notChecked);
    expect(violations.map((v) => `${v.check} ${v.subject} @${v.height}: ${v.detail}`)).to.deep.equal([]);
  });
});
