/**
 * `npm run gen`: writes what is generated from tables.yaml — each plugin's `tables.generated.ts`
 * (row types and typed handles) and the table/series part of docs/tables.md. Anyone who changes
 * tables.yaml re-runs it; test/framework/generated.test.ts fails while the outputs are stale.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { loadCatalogFile } from '../catalog/CatalogLoader';
import { renderRowTypes } from '../catalog/codegen/rowTypes';
import { withTableSections } from '../catalog/codegen/tablesDoc';
import { PACKAGE_ROOT } from '../config/InstanceConfig';

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

if (require.main === module) {
  for (const [file, content] of generatedFiles()) {
    const target = path.join(PACKAGE_ROOT, file);
    const old = fs.existsSync(target) ? fs.readFileSync(target, 'utf8') : undefined;
    if (old === content) continue;
    fs.writeFileSync(target, content);
    process.stdout.write(`wrote ${file}\n`);
  }
}
