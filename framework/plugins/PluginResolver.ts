import { PluginClass } from './Plugin';

export class PluginError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PluginError';
  }
}

/**
 * Chooses the plugins an instance runs: the enabled names plus whatever they depend on, in an order
 * where every plugin comes after its dependencies. Unknown names and dependency cycles are rejected
 * with a message that names them.
 */
export function resolvePlugins(
  available: readonly PluginClass[],
  enabled: readonly string[] | undefined,
): PluginClass[] {
  const byName = new Map<string, PluginClass>();
  for (const p of available) {
    if (byName.has(p.manifest.name)) throw new PluginError(`two plugins are named '${p.manifest.name}'`);
    byName.set(p.manifest.name, p);
  }
  const known = [...byName.keys()].sort().join(', ');
  const wanted = enabled ?? [...byName.keys()];
  const ordered: PluginClass[] = [];
  const state = new Map<string, 'visiting' | 'done'>();
  const visit = (name: string, path: string[]): void => {
    const p = byName.get(name);
    if (!p) {
      const via = path.length > 0 ? ` (required by '${path[path.length - 1]}')` : '';
      throw new PluginError(`unknown plugin '${name}'${via}; available: ${known}`);
    }
    if (state.get(name) === 'done') return;
    if (state.get(name) === 'visiting')
      throw new PluginError(`plugin dependency cycle: ${[...path.slice(path.indexOf(name)), name].join(' -> ')}`);
    state.set(name, 'visiting');
    for (const dep of p.manifest.dependsOn ?? []) visit(dep, [...path, name]);
    state.set(name, 'done');
    ordered.push(p);
  };
  for (const name of wanted) visit(name, []);
  return ordered;
}
