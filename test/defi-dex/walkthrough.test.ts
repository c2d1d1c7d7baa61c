import { expect } from 'chai';
import * as path from 'node:path';
import { injectable } from 'tsyringe';
import { discoverFolders } from '../../framework';
import { BUILTIN_PLUGIN_DIR } from '../../framework/app/TzidxApp';
import type { PluginClass } from '../../framework/plugins/Plugin';
import { discoverPlugins } from '../../framework/plugins/PluginDiscovery';
import { SandboxChain } from '../../framework/sandbox';
import { DEXTER_LABEL } from '../../plugins/defi-dex/adapters/dexter/sim/sandbox';
import type { DexAdapter } from '../../plugins/defi-dex/core/DexAdapter';
import { DEX_ADAPTERS_DIR, DefiDexPlugin } from '../../plugins/defi-dex/plugin';
import { indexSandbox } from '../support/IndexHarness';
import { startTestInstance, type TestInstance } from '../support/TestInstance';
import { Json, json } from './support/DexOracle';
import { callsTo, leadingInts } from './support/poolCalls';

/** The test's own adapters root: its one folder, `mini-dexter/`, is the walkthrough of docs/plugins.md. */
const WALKTHROUGH_ROOT = path.join(__dirname, 'walkthrough');

/** TEST ONLY: defi-dex with the walkthrough root's adapters alone (the built-in dexter would index the pool too). */
@injectable()
class WalkthroughDexPlugin extends DefiDexPlugin {
  override adapterRoots(): readonly string[] {
    return [WALKTHROUGH_ROOT];
  }
}

/** A Dexter v1 storage as the node prints it: the `accounts` big map id, then lqtTotal, tokenPool, xtzPool. */
function reserves(storage: unknown) {
  const [, lqt, token, tez] = leadingInts(storage, 4);
  return { token, tez, lqt };
}

describe('defi-dex walkthrough (docs/plugins.md): adding a DEX protocol is one new folder', function () {
  this.timeout(240_000);
  const chain = new SandboxChain({ seed: 'dex-walkthrough', profile: 'tiny', traffic: ['defi-dex:dexter'] });
  const pool = chain.contracts.derivedAddress(DEXTER_LABEL);
  let t: TestInstance;

  before(async () => {
    const builtin = discoverPlugins([BUILTIN_PLUGIN_DIR]).filter((p) => p.manifest.name === 'core-chain');
    t = await startTestInstance({ plugins: [...builtin, WalkthroughDexPlugin as unknown as PluginClass] });
    chain.bakeTo(40);
    await indexSandbox(t, chain);
  });
  after(() => t?.close());

  it('discovers the folder after the built-in adapters, which keep the order they were registered in', () => {
    const names = discoverFolders<DexAdapter>([DEX_ADAPTERS_DIR, WALKTHROUGH_ROOT], 'adapter').map((a) => a.name);
    expect(names).to.deep.equal([
      ...['lb', 'quipuswap', 'plenty', 'plenty-stable', 'dexter', 'quipuswap-v3', 'vortex', 'youves-flat', 'spicy'],
      ...['quipuswap-v2', 'quipuswap-stable', 'mini-dexter'],
    ]);
  });

  it("indexes the pool's calls with the storage after each and serves the pool on /v1/dex", async () => {
    const calls = callsTo(chain, pool);
    expect(calls.length, 'pool calls').to.be.greaterThan(3);
    const all = (await json(t, `/v1/dex/events?pool=${pool}_0&limit=1000`)) as Json[];
    // The pool is declared (a `create` event) at its first call, whose own event follows.
    const events = all.filter((e) => e.event_type !== 'create');
    expect(all.length - events.length).to.equal(1);
    expect(events.map((e) => e.tx_hash)).to.deep.equal(calls.map((c) => c.hash));
    calls.forEach((c, i) => {
      const r = reserves(c.storage);
      expect([events[i].supply_a, events[i].supply_b, events[i].supply_lp], c.hash).to.deep.equal(
        [r.token, r.tez, r.lqt].map(String),
      );
    });
    const [served] = (await json(t, '/v1/dex')) as Json[];
    const last = reserves(calls[calls.length - 1].storage);
    expect(served).to.include({ pool: `${pool}_0`, entity: 'mini_dexter', supply_a: String(last.token) });
    expect([served.supply_b, served.supply_lp]).to.deep.equal([String(last.tez), String(last.lqt)]);
  });
});
