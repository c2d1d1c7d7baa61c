import type { Catalog } from '../Catalog';
import type { TableDef } from '../CatalogModel';

/** `bigmap_updates` → `BigmapUpdatesRow`. */
export function rowTypeName(code: string): string {
  return `${code.replace(/(^|_)([a-z0-9])/g, (_m, _s, c: string) => c.toUpperCase())}Row`;
}

/**
 * The TypeScript source of a plugin's `tables.generated.ts`: one row type per table (what writers
 * pass: nullable columns optional, row_id and the orphan flag filled by the framework) and a `tables`
 * object of typed handles. Undefined when the plugin declares no table.
 */
export function renderRowTypes(catalog: Catalog, plugin: string, frameworkImport: string): string | undefined {
  const tables = [...catalog.tables.values()].filter((t) => t.plugin === plugin);
  if (tables.length === 0) return undefined;
  const out = [
    '// Generated from tables.yaml by `npm run gen`: do not edit (test/framework/generated.test.ts checks it is current).',
    `import { tableHandle } from '${frameworkImport}';`,
    '',
  ];
  for (const t of tables) out.push(...rowType(t), '');
  out.push(`/** Typed handles of the ${plugin} tables: \`ctx.append(tables.${tables[0].code}, row)\`. */`, 'export const tables = {');
  for (const t of tables) out.push(`  ${t.code}: tableHandle<${rowTypeName(t.code)}>('${t.code}'),`);
  out.push('} as const;', '');
  return out.join('\n');
}

function rowType(t: TableDef): string[] {
  const lines = [`/** ${t.description} */`, `export type ${rowTypeName(t.code)} = {`];
  for (const c of t.columns) {
    const filled = c.name === 'row_id' || c.name === t.orphanColumn;
    const optional = filled || c.nullable;
    lines.push(`  /** ${c.description.replace(/\*\//g, '* /')} */`);
    lines.push(`  ${c.name}${optional ? '?' : ''}: ${c.type.tsType}${c.nullable ? ' | null' : ''};`);
  }
  lines.push('};');
  return lines;
}
