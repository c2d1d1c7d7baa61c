import * as fs from 'node:fs';
import * as path from 'node:path';
import { isPluginClass, PluginClass } from './Plugin';
import { PluginError } from './PluginResolver';

/**
 * Finds plugins by convention: every sub-folder of a plugin directory whose `plugin.js` exports a plugin
 * class (default or named export). The framework thereby knows the convention, not the plugins.
 */
export function discoverPlugins(dirs: readonly string[]): PluginClass[] {
  const found: PluginClass[] = [];
  for (const dir of dirs) {
    if (!fs.existsSync(dir)) throw new PluginError(`plugin directory ${dir} does not exist`);
    for (const entry of fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const file = path.join(dir, entry.name, 'plugin.js');
      if (!entry.isDirectory() || !fs.existsSync(file)) continue;
      // eslint-disable-next-line @typescript-eslint/no-require-imports -- a plugin found on disk at run time
      const mod = require(file) as Record<string, unknown>;
      const cls = Object.values(mod).find(isPluginClass);
      if (!cls) throw new PluginError(`${file} exports no plugin class (a class with a static manifest)`);
      found.push(cls);
    }
  }
  return found;
}
