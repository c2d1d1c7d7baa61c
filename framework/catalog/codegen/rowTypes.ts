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
    '// Generated from tables.yaml by `npm run gen`: do not edit',
    '// (test/framework/generated.test.ts checks it is current).',
    `import { tableHandle } from '${frameworkImport}';`,
    '',
  ];
  for (const t of tables) out.push(...rowType(t), '');
  out.push(
    `/** Typed handles of the ${plugin} tables: \`ctx.append(tables.${tables[0].code}, row)\`. */`,
    'export const tables = {',
  );
  for (const t of tables) out.push(`  ${t.code}: tableHandle<${rowTypeName(t.code)}>('${t.code}'),`);
  out.push('} as const;', '');
  return out.join('\n');
}

function rowType(t: TableDef): string[] {
  const lines = [...docComment(t.description, ''), `export type ${rowTypeName(t.code)} = {`];
  for (const c of t.columns) {
    const filled = c.name === 'row_id' || c.name === t.orphanColumn;
    const optional = filled || c.nullable;
    lines.push(...docComment(c.description, '  '));
    lines.push(...field(`${c.name}${optional ? '?' : ''}`, `${c.type.tsType}${c.nullable ? ' | null' : ''}`));
  }
  lines.push('};');
  return lines;
}

/** A doc comment on one line, or word-wrapped within 120 columns. */
function docComment(text: string, indent: string): string[] {
  const safe = text.replace(/\*\//g, '* /');
  if (`${indent}/** ${safe} */`.length <= 120) return [`${indent}/** ${safe} */`];
  const lines: string[] = [];
  for (const word of safe.split(/\s+/)) {
    const last = lines.length - 1;
    if (last >= 0 && `${indent} * ${lines[last]} ${word}`.length <= 120) lines[last] += ` ${word}`;
    else lines.push(word);
  }
  return [`${indent}/**`, ...lines.map((l) => `${indent} * ${l}`), `${indent} */`];
}

/** A field as Prettier prints it: on one line, or a union too long for 120 columns one member a line. */
function field(name: string, type: string): string[] {
  const line = `  ${name}: ${type};`;
  if (line.length <= 120) return [line];
  return [`  ${name}:`, ...type.split(' | ').map((m, i, all) => `    | ${m}${i === all.length - 1 ? ';' : ''}`)];
}
