import { BUILTIN_PLUGIN_DIR } from '../../../framework/app/TzidxApp';
import type { NormalizedOperation } from '../../../framework/chain';
import { discoverPlugins } from '../../../framework/plugins/PluginDiscovery';
import { SandboxChain } from '../../../framework/sandbox';
import { indexSandbox } from '../../support/IndexHarness';
import { startTestInstance, type TestInstance } from '../../support/TestInstance';
import { callsTo } from './poolCalls';

export interface SandboxPoolRun {
  readonly chain: SandboxChain;
  /** The pool contract and its `KT1…_0` key. */
  readonly contract: string;
  readonly pool: string;
  /** Set by the `before` hook: the instance that indexed the chain and the pool's applied calls. */
  t: TestInstance;
  calls: NormalizedOperation[];
}

/**
 * Registers the hooks of a sandbox pool test in the current `describe`: a `tiny` chain from `seed`
 * with only the `traffic` sources named, baked to `level`, indexed by a fresh instance with the built-in plugins, and
 * the applied calls of the pool `contract` names on it.
 */
export function sandboxPool(
  seed: string,
  level: number,
  traffic: readonly string[],
  contract: (chain: SandboxChain) => string,
): SandboxPoolRun {
  const chain = new SandboxChain({ seed, profile: 'tiny', traffic });
  const address = contract(chain);
  const run = {
    chain,
    contract: address,
    pool: `${address}_0`,
    t: undefined as unknown as TestInstance,
    calls: [] as NormalizedOperation[],
  };
  before(async () => {
    run.t = await startTestInstance({ plugins: discoverPlugins([BUILTIN_PLUGIN_DIR]) });
    chain.bakeTo(level);
    await indexSandbox(run.t, chain);
    run.calls = callsTo(chain, address);
  });
  after(() => run.t?.close());
  return run;
}
