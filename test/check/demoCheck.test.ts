import { expect } from 'chai';
import { BUILTIN_PLUGIN_DIR } from '../../framework/app/TzidxApp';
import type { Violation } from '../../framework/check/Reconciliation';
import { discoverPlugins } from '../../framework/plugins/PluginDiscovery';
import { PROFILES, SandboxChain } from '../../framework/sandbox';
import { indexSandbox } from '../support/IndexHarness';
import { BACKEND } from '../support/TestDatabase';
import { startTestInstance, type TestInstance } from '../support/TestInstance';

/**
 * The DeFi plugins `npm start` runs, and the bigmaps plugin whose updates hold the big-map pools' reserves (QuipuSwap
 * v2, StableSwap), indexed once: every family's checks hold over the same history.
 */
const DEFI = ['core-chain', 'bigmaps', 'defi-dex', 'defi-farm', 'defi-lending'];

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

  before(async () => {
    const chain = new SandboxChain({ seed: 'tzidx', profile: 'demo' });
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
