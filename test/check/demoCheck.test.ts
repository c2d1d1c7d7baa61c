import { expect } from 'chai';
import { BUILTIN_PLUGIN_DIR } from '../../framework/app/TzidxApp';
import type { Violation } from '../../framework/check/Reconciliation';
import { discoverPlugins } from '../../framework/plugins/PluginDiscovery';
import { PROFILES, SandboxChain } from '../../framework/sandbox';
import { indexSandbox } from '../support/IndexHarness';
import { BACKEND } from '../support/TestDatabase';
import { startTestInstance, type TestInstance } from '../support/TestInstance';

/** The DeFi plugins `npm start` runs, indexed once: every family's checks run over the same history. */
const DEFI = ['core-chain', 'defi-dex', 'defi-farm', 'defi-lending'];

/**
 * Why: `tzidx check defi` over the chain `npm start` indexes (seed `tzidx`, profile `demo`, its whole history, the
 * DeFi plugins). A farm or lending violation fails the test and is named; the DEX's are printed until the sandbox
 * opens its pools by operations (docs/defi-dex.md, Reconciliation).
 */
describe(`tzidx check defi over the demo chain (${BACKEND})`, function () {
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

  it('finds no farm or lending violation; prints what the DEX data breaks (docs/defi-dex.md)', () => {
    const dex = found.filter((v) => v.check.startsWith('dex.'));
    const counts = new Map<string, number>();
    for (const v of dex) {
      const name = v.notChecked ? `${v.check} (not checked)` : v.check;
      counts.set(name, (counts.get(name) ?? 0) + 1);
    }
    console.log(`      DEX violations: ${JSON.stringify(Object.fromEntries(counts))}`);
    const rest = found.filter((v) => !v.check.startsWith('dex.'));
    expect(rest.map((v) => `${v.check} ${v.subject} @${v.height}: ${v.detail}`)).to.deep.equal([]);
  });
});
