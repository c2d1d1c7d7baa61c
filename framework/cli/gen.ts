/**
 * `npm run gen`: writes what is generated from tables.yaml — each plugin's `tables.generated.ts`
 * (row types and typed handles) and the table/series part of docs/tables.md — and the route tables
 * of docs/*.md from the routes the plugins mount, and each DeFi protocol folder's `types.gen.ts` from its
 * shipped contract types (`contractTypes.ts`). Anyone who changes tables.yaml or a route re-runs
 * it; test/framework/generated.test.ts fails while the outputs are stale.
 */
import 'reflect-metadata';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { loadCatalogFile } from '../catalog/CatalogLoader';
import { renderRowTypes } from '../catalog/codegen/rowTypes';
import { withTableSections } from '../catalog/codegen/tablesDoc';
import { DEFAULTS, PACKAGE_ROOT } from '../config/InstanceConfig';
import { TzidxApp } from '../app/TzidxApp';
import { silentLogger } from '../util/Logger';
import { generatedContractTypes } from './contractTypes';
import { withRouteTables } from './routeTables';

/** Every generated file (path relative to the root → content), computed from the root's tables.yaml. */
export function generatedFiles(root = PACKAGE_ROOT): Map<string, string> {
  const catalog = loadCatalogFile(path.join(root, 'tables.yaml'));
  const out = new Map<string, string>();
  const plugins = new Set([...catalog.tables.values()].map((t) => t.plugin));
  for (const plugin of [...plugins].sort()) {
    if (!fs.existsSync(path.join(root, 'plugins', plugin))) continue;
    const source = renderRowTypes(catalog, plugin, '../../framework');
    if (source) out.set(path.join('plugins', plugin, 'tables.generated.ts'), source);
  }
  const doc = path.join('docs', 'tables.md');
  out.set(doc, withTableSections(fs.readFileSync(path.join(root, doc), 'utf8'), catalog));
  return out;
}

/**
 * Every doc with generated route tables (path relative to the root → content): mounts every built-in
 * plugin's routes on an in-memory instance (a few seconds) and renders them.
 */
export async function generatedRouteDocs(root = PACKAGE_ROOT): Promise<Map<string, string>> {
  const catalogFile = path.join(root, 'tables.yaml');
  const app = await TzidxApp.create({ ...DEFAULTS, catalogFile, dataDir: ':memory:' }, { log: silentLogger });
  await app.close();
  const out = new Map<string, string>();
  for (const name of fs.readdirSync(path.join(root, 'docs')).sort()) {
    const doc = path.join('docs', name);
    const content = withRouteTables(fs.readFileSync(path.join(root, doc), 'utf8'), app.routes.mounted);
    if (content !== undefined) out.set(doc, content);
  }
  return out;
}

async function main(): Promise<void> {
  const all = [...generatedFiles(), ...(await generatedContractTypes(PACKAGE_ROOT)), ...(await generatedRouteDocs())];
  for (const [file, content] of all) {
    const target = path.join(PACKAGE_ROOT, file);
    const old = fs.existsSync(target) ? fs.readFileSync(target, 'utf8') : undefined;
    if (old === content) continue;
    fs.writeFileSync(target, content);
    process.stdout.write(`wrote ${file}\n`);
  }
}

if (require.main === module) void main();
