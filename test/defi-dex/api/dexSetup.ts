import { BUILTIN_PLUGIN_DIR } from '../../../framework/app/TzidxApp';
import { PluginClass } from '../../../framework/plugins/Plugin';
import { discoverPlugins } from '../../../framework/plugins/PluginDiscovery';
import { SandboxChain } from '../../../framework/sandbox';
import type { Logger } from '../../../framework/util/Logger';
import { indexSandbox } from '../../support/IndexHarness';
import { startTestInstance, TestInstance } from '../../support/TestInstance';
import { DexFixture, dexFixture } from '../support/DexFixture';
import { DexFixturePlugin, fixtureHolder } from '../support/DexFixturePlugin';
import { QuotedDexPlugin } from '../support/QuotedDexPlugin';

export const HEAD = 16;

/** An instance with core-chain, metadata, the quoted DEX API and the fixture, indexed over a sandbox. */
export async function startDexInstance(log?: Logger): Promise<{ t: TestInstance; f: DexFixture }> {
  const chain = new SandboxChain({ seed: 'dex-api', profile: 'tiny' });
  chain.bakeTo(HEAD);
  const f = dexFixture(Date.now(), HEAD);
  fixtureHolder.fixture = f;
  const builtin = discoverPlugins([BUILTIN_PLUGIN_DIR]).filter((p) =>
    ['core-chain', 'metadata'].includes(p.manifest.name),
  );
  const t = await startTestInstance({
    plugins: [...builtin, QuotedDexPlugin as unknown as PluginClass, DexFixturePlugin as unknown as PluginClass],
    log,
  });
  await indexSandbox(t, chain);
  return { t, f };
}
