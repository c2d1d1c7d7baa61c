import * as fs from 'node:fs';
import * as path from 'node:path';
import { PluginError } from './PluginResolver';

/**
 * Why: a plugin's protocols are folders, found at load like the plugins themselves (PluginDiscovery), so adding a
 * protocol is adding a folder, with no registration list to keep. Every sub-folder of a root that holds `<file>.js`
 * (compiled) contributes the one value its module exports whose `name` is the folder's name. A module may export
 * `order` (a number) where its place among the others matters (claims and known code versions are tried, and a
 * block's records written, in this order): those come first by it, the others after them in folder-name order.
 */

/** What a discovered module exports: the value is named after its folder. */
export interface Named {
  readonly name: string;
}

/** The named values of the folders under `roots` that hold `file` (a compiled module's name without `.js`). */
export function discoverFolders<T extends Named>(roots: readonly string[], file: string): T[] {
  const found: { value: T; order: number }[] = [];
  for (const root of roots) {
    if (!fs.existsSync(root)) throw new PluginError(`folder ${root} does not exist`);
    for (const entry of fs.readdirSync(root, { withFileTypes: true })) {
      const module = path.join(root, entry.name, `${file}.js`);
      if (!entry.isDirectory() || !fs.existsSync(module)) continue;
      // eslint-disable-next-line @typescript-eslint/no-require-imports -- a module found on disk at run time
      const exports = require(module) as Record<string, unknown>;
      const value = Object.values(exports).find((v) => (v as Partial<Named> | null)?.name === entry.name);
      if (value === undefined) throw new PluginError(`${module} exports nothing named '${entry.name}'`);
      const order = typeof exports.order === 'number' ? exports.order : Infinity;
      found.push({ value: value as T, order });
    }
  }
  const names = found.map((f) => f.value.name);
  const twice = names.find((n, i) => names.indexOf(n) !== i);
  if (twice !== undefined) throw new PluginError(`two folders named '${twice}'`);
  const byName = (a: T, b: T): number => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
  return found.sort((a, b) => a.order - b.order || byName(a.value, b.value)).map((f) => f.value);
}
