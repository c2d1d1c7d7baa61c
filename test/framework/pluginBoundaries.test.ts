import { expect } from 'chai';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { PACKAGE_ROOT } from '../../framework/config/InstanceConfig';

/**
 * The import rules docs/plugins.md states, read from the sources: the framework never imports a plugin; a plugin
 * reaches another plugin only through its index.ts; indexing code reaches the framework only through
 * framework/index.ts (and the DeFi core's framework/defi/index.ts, itself built on framework/index.ts only) and
 * simulator code only through framework/sandbox/extension.ts; no indexing code reaches a sandbox.ts; a plugin's core/
 * and api/ do not import each other. In the DeFi plugins a protocol is a folder, found at load: its `adapter.ts` is an
 * entry of indexing code as plugin.ts is, its `sim/index.ts` an entry of simulator code as sandbox.ts is; simulator
 * code (a `sim/` folder, a sandbox.ts) and indexing code never import each other. What both need of a real contract
 * (its shipped Michelson types, constants from its source) is in the protocol folder's neutral files, `types.ts` and
 * the generated `types.gen.ts` (with the shared `adapters/knownCode.ts` they are built with): either side may import
 * them, and they import nothing of either side. The imports that break a rule today are listed below: a new one
 * fails, and so does a listed one that is gone (then delete its line).
 */

/** What a plugin's indexing code may import of the framework: its index and the DeFi core's (docs/architecture.md). */
const PUBLIC = ['framework/index.ts', 'framework/defi/index.ts'];

/** Decoders that read Michelson types through framework internals. */
const INDEXING_KNOWN = [
  'defi-dex/adapters/quipuswap-stable/adapter.ts → framework/michelson/ScriptExpr.ts',
  'defi-dex/adapters/quipuswap/types.ts → framework/michelson/ContractTypes.ts',
  'defi-dex/adapters/knownCode.ts → framework/michelson/ContractTypes.ts',
  'defi-farm/adapters/plenty/types.ts → framework/michelson/ContractTypes.ts',
];

/** The plugins whose protocols are folders with their simulators in `sim/`. */
const DEFI = ['defi-dex', 'defi-farm', 'defi-lending'];

/** Simulator code by its place: a `sim/` folder or a plugin's sandbox.ts. */
const isSimulator = (file: string): boolean => /\/sim\//.test(file) || /^plugins\/[^/]+\/sandbox\.ts$/.test(file);

/** A protocol's real contract facts, neutral between its simulator and its decoder (docs/plugins.md). */
const isNeutral = (file: string): boolean =>
  /^plugins\/[^/]+\/adapters\/([^/]+\/types(\.gen)?\.ts|knownCode\.ts)$/.test(file);

/** What a file of a DeFi plugin is: simulator code, indexing code or a neutral file. */
const sideOf = (file: string): string => (isNeutral(file) ? 'neutral' : isSimulator(file) ? 'simulator' : 'indexing');

/** Repository-relative .ts file → the repository .ts files it imports (relative specifiers only). */
function importGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  const walk = (dir: string): void => {
    for (const e of fs.readdirSync(path.join(PACKAGE_ROOT, dir), { withFileTypes: true })) {
      const file = path.posix.join(dir, e.name);
      if (e.isDirectory()) walk(file);
      else if (e.name.endsWith('.ts') && !e.name.endsWith('.d.ts')) {
        const source = fs.readFileSync(path.join(PACKAGE_ROOT, file), 'utf8');
        const specs = [...source.matchAll(/(?:from|import|require\()\s*'(\.[^']*)'/g)].map((m) => m[1]);
        graph.set(
          file,
          specs.map((s) => resolve(file, s)),
        );
      }
    }
  };
  walk('framework');
  walk('plugins');
  return graph;
}

function resolve(from: string, spec: string): string {
  const base = path.posix.normalize(path.posix.join(path.posix.dirname(from), spec));
  const candidates = [`${base}.ts`, `${base}/index.ts`];
  return candidates.find((c) => fs.existsSync(path.join(PACKAGE_ROOT, c))) ?? base;
}

/** Files reachable from the given entry files, following imports inside the entries' own plugin. */
function reach(graph: Map<string, string[]>, entries: string[]): Set<string> {
  const seen = new Set<string>();
  const stack = [...entries];
  while (stack.length > 0) {
    const file = stack.pop()!;
    if (seen.has(file) || !graph.has(file)) continue;
    seen.add(file);
    const plugin = pluginOf(file);
    stack.push(...graph.get(file)!.filter((t) => pluginOf(t) === plugin));
  }
  return seen;
}

function pluginOf(file: string): string | undefined {
  return /^plugins\/([^/]+)\//.exec(file)?.[1];
}

const short = (edge: string): string => edge.replace(/plugins\//g, '');

/** What a rule finds against what is known: both lists must come out empty. */
function compare(found: string[], known: string[]): { new: string[]; gone: string[] } {
  const f = new Set(found.map(short));
  return { new: [...f].filter((e) => !known.includes(e)).sort(), gone: known.filter((e) => !f.has(e)) };
}

describe('plugin import boundaries (docs/plugins.md)', () => {
  const graph = importGraph();
  const edges = [...graph].flatMap(([from, tos]) => tos.map((to) => ({ from, to })));
  const plugins = fs.readdirSync(path.join(PACKAGE_ROOT, 'plugins'));
  const at = (p: string, f: string): string[] => (graph.has(`plugins/${p}/${f}`) ? [`plugins/${p}/${f}`] : []);
  /** The protocol folders' adapters and simulators, found at load: entries as plugin.ts and sandbox.ts are. */
  const adapters = [...graph.keys()].filter((f) => /^plugins\/[^/]+\/adapters\/[^/]+\/adapter\.ts$/.test(f));
  const simulators = [...graph.keys()].filter((f) => /^plugins\/[^/]+\/adapters\/[^/]+\/sim\/index\.ts$/.test(f));
  const indexing = reach(graph, [
    ...plugins.flatMap((p) => [...at(p, 'plugin.ts'), ...at(p, 'index.ts')]),
    ...adapters,
  ]);
  const simulator = new Set(
    [...reach(graph, [...plugins.flatMap((p) => at(p, 'sandbox.ts')), ...simulators])].filter(
      (f) => !indexing.has(f) && !isNeutral(f),
    ),
  );
  const frameworkEdges = (files: Set<string>): string[] =>
    edges.filter((e) => files.has(e.from) && e.to.startsWith('framework/')).map((e) => `${e.from} → ${e.to}`);

  it('finds the sources: every plugin with code, the simulators apart from the indexing code', () => {
    expect(graph.size).to.be.greaterThan(400);
    expect(indexing).to.include('plugins/defi-dex/adapters/lb/adapter.ts').and.include('plugins/baking/plugin.ts');
    expect(simulator)
      .to.include('plugins/defi-dex/adapters/lb/sim/sandbox.ts')
      .and.not.include('plugins/defi-dex/plugin.ts');
    expect(adapters).to.have.length.greaterThan(15).and.include('plugins/defi-lending/adapters/ctez/adapter.ts');
    expect(simulators).to.have.length(adapters.length).and.include('plugins/defi-farm/adapters/youves/sim/index.ts');
  });

  it('DeFi simulator code (sim/ folders, sandbox.ts) is all the simulators reach, and no indexing code is in it', () => {
    const defi = (f: string) => DEFI.includes(pluginOf(f) ?? '');
    expect([...simulator].filter((f) => defi(f) && !isSimulator(f))).to.deep.equal([]);
    expect([...indexing].filter((f) => defi(f) && isSimulator(f))).to.deep.equal([]);
  });

  const inside = edges.filter((e) => DEFI.includes(pluginOf(e.from) ?? '') && pluginOf(e.to) === pluginOf(e.from));
  const crossing = (from: string, to: string): string[] =>
    inside.filter((e) => sideOf(e.from) === from && sideOf(e.to) === to).map((e) => `${e.from} → ${e.to}`);

  it('finds the neutral files: every protocol folder with shipped types has its types.ts', () => {
    expect([...graph.keys()].filter(isNeutral))
      .to.include('plugins/defi-dex/adapters/quipuswap-v2/types.ts')
      .and.include('plugins/defi-dex/adapters/spicy/types.ts')
      .and.include('plugins/defi-dex/adapters/knownCode.ts')
      .and.not.include('plugins/defi-dex/adapters/quipuswap-v2/storage.ts');
    expect(crossing('simulator', 'neutral')).to.include(
      'plugins/defi-dex/adapters/spicy/sim/sandbox.ts → plugins/defi-dex/adapters/spicy/types.ts',
    );
  });

  it('in the DeFi plugins, simulators never import indexing code and indexing code never imports a simulator', () => {
    expect([...crossing('simulator', 'indexing'), ...crossing('indexing', 'simulator')]).to.deep.equal([]);
  });

  it("a protocol's neutral files (types.ts, types.gen.ts) import neither its simulator nor its indexing code", () => {
    const found = [...crossing('neutral', 'simulator'), ...crossing('neutral', 'indexing')];
    expect(compare(found, [])).to.deep.equal({ new: [], gone: [] });
  });

  it('the framework never imports a plugin', () => {
    const found = edges.filter((e) => e.from.startsWith('framework/') && e.to.startsWith('plugins/'));
    expect(found.map((e) => `${e.from} → ${e.to}`)).to.deep.equal([]);
  });

  it("a plugin imports another plugin only through that plugin's index.ts", () => {
    const found = edges
      .filter((e) => pluginOf(e.from) && pluginOf(e.to) && pluginOf(e.from) !== pluginOf(e.to))
      .filter((e) => e.to !== `plugins/${pluginOf(e.to)}/index.ts`)
      .map((e) => `${e.from} → ${e.to}`);
    expect(found).to.deep.equal([]);
  });

  it('indexing code (what plugin.ts and index.ts reach) imports the framework only through its public surfaces', () => {
    const found = frameworkEdges(indexing).filter((e) => !PUBLIC.some((p) => e.endsWith(` → ${p}`)));
    expect(compare(found, INDEXING_KNOWN)).to.deep.equal({ new: [], gone: [] });
  });

  it('the DeFi core (framework/defi) builds on framework/index.ts only, as a plugin would', () => {
    const found = edges
      .filter((e) => e.from.startsWith('framework/defi/') && !e.to.startsWith('framework/defi/'))
      .filter((e) => e.to !== 'framework/index.ts')
      .map((e) => `${e.from} → ${e.to}`);
    expect(found).to.deep.equal([]);
  });

  it("no arrow between a plugin's core/ (indexing) and its api/ (answers), either way", () => {
    const part = (f: string): string | undefined => /^plugins\/[^/]+\/(core|api)\//.exec(f)?.[1];
    const found = edges
      .filter((e) => pluginOf(e.from) === pluginOf(e.to) && part(e.from) && part(e.to) && part(e.from) !== part(e.to))
      .map((e) => `${e.from} → ${e.to}`);
    expect(found).to.deep.equal([]);
  });

  it('simulator code (only sandbox.ts and sim/index.ts reach) imports the framework only via sandbox/extension.ts', () => {
    const found = frameworkEdges(simulator).filter((e) => !e.endsWith(' → framework/sandbox/extension.ts'));
    expect(found).to.deep.equal([]);
  });

  it('no indexing code reaches a sandbox.ts (the sandbox is loaded by the CLI and the app only)', () => {
    expect([...indexing].filter((f) => f.endsWith('/sandbox.ts'))).to.deep.equal([]);
  });
});
