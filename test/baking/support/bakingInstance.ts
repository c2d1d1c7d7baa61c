import { BUILTIN_PLUGIN_DIR } from '../../../framework/app/TzidxApp';
import { discoverPlugins } from '../../../framework/plugins/PluginDiscovery';
import type { InstanceConfig } from '../../../framework/config/InstanceConfig';
import { startTestInstance, type TestInstance } from '../../support/TestInstance';

/** An instance with only the plugins baking needs (core-chain and baking). */
export function startBakingInstance(config?: Partial<InstanceConfig>): Promise<TestInstance> {
  const plugins = discoverPlugins([BUILTIN_PLUGIN_DIR]).filter(
    (p) => p.manifest.name === 'core-chain' || p.manifest.name === 'baking',
  );
  return startTestInstance({ plugins, config });
}
