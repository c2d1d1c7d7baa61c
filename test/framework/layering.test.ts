import { expect } from 'chai';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { PACKAGE_ROOT } from '../../framework/config/InstanceConfig';

const FRAMEWORK = path.join(PACKAGE_ROOT, 'framework');

/** Folder → folders its .ts sources import (relative imports only; the root index.ts is the public surface). */
function folderGraph(): Map<string, Set<string>> {
  const graph = new Map<string, Set<string>>();
  const walk = (dir: string): void => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.name.endsWith('.ts') && dir !== FRAMEWORK) {
        const from = path.relative(FRAMEWORK, p).split(path.sep)[0];
        for (const m of fs.readFileSync(p, 'utf8').matchAll(/from '(\.[^']+)'/g)) {
          const target = path.relative(FRAMEWORK, path.resolve(dir, m[1]));
          if (target.startsWith('..')) continue;
          const to = target.split(path.sep)[0];
          if (to === from || to === 'index') continue;
          if (!graph.has(from)) graph.set(from, new Set());
          graph.get(from)!.add(to);
        }
      }
    }
  };
  walk(FRAMEWORK);
  return graph;
}

describe('framework layering', () => {
  const graph = folderGraph();

  it('has no import cycles between framework folders', () => {
    const cycles: string[] = [];
    const reaches = (a: string, b: string, seen = new Set<string>()): boolean =>
      [...(graph.get(a) ?? [])].some((n) => n === b || (!seen.has(n) && (seen.add(n), reaches(n, b, seen))));
    for (const [from, tos] of graph) for (const to of tos) if (reaches(to, from)) cycles.push(`${from} ⇄ ${to}`);
    expect(graph.size).to.be.greaterThan(10);
    expect(cycles).to.deep.equal([]);
  });

  it('keeps the sandbox a leaf: only the CLI imports it', () => {
    const importers = [...graph].filter(([, tos]) => tos.has('sandbox')).map(([from]) => from);
    expect(importers).to.deep.equal(['cli']);
  });
});
