import type { Catalog } from '../Catalog';
import type { TableDef } from '../CatalogModel';

/** `bigmap_updates` → `BigmapUpdatesRow`. */
export function rowTypeName(code: string): string {
  return `${code.replace(/(^|_)([a-z0-9])/g, (_m, _s, c: string) => c.toUpperCase())}Row`;
}

/** `bigmap_updates` → `BigmapUpdatesRead`. */
export function readTypeName(code: string): string {
  return rowTypeName(code).replace(/Row$/, 'Read');
}

/**
 * The TypeScript source of a plugin's `tables.generated.ts`: per table, the row type writers pass
 * (nullable columns optional, row_id and the orphan flag filled by the framework) and the row type a
 * read through CatalogRows holds (every column, values as explorer objects show them), and a `tables`
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
  for (const t of tables) out.push(...rowType(t), '', ...readType(t), '');
  out.push(
    `/** Typed handles of the ${plugin} tables: \`ctx.append(tables.${tables[0].code}, row)\`. */`,
    'export const tables = {',
  );
  for (const t of tables) {
    const line = `  ${t.code}: tableHandle<${rowTypeName(t.code)}, ${readTypeName(t.code)}>('${t.code}'),`;
    out.push(...(line.length <= 120 ? [line] : wrappedHandle(t.code)));
  }
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

/**
 * A row of the table as CatalogRows reads it: each column's `readTsType`, null where the column is nullable;
 * aliases too (CatalogRows selects them by name).
 */
function readType(t: TableDef): string[] {
  const doc = `/** A ${t.code} row as read (CatalogRows): values as explorer objects show them. */`;
  const fields = [...t.columns, ...t.virtualColumns.filter((c) => c.aliasOf !== undefined)].map((c) => {
    const members = c.type.readTsType.split(' | ');
    if (c.nullable && !members.includes('null') && c.type.readTsType !== 'unknown') members.push('null');
    return [c.name, members.join(' | ')];
  });
  // Prettier prints a type literal without comments on one line when it fits.
  const oneLine = `export type ${readTypeName(t.code)} = { ${fields.map(([n, ty]) => `${n}: ${ty}`).join('; ')} };`;
  if (oneLine.length <= 120) return [doc, oneLine];
  return [doc, `export type ${readTypeName(t.code)} = {`, ...fields.flatMap(([n, ty]) => field(n, ty)), '};'];
}

/** A handle as Prettier prints one too long for 120 columns. */
function wrappedHandle(code: string): string[] {
  return [`  ${code}: tableHandle<`, `    ${rowTypeName(code)},`, `    ${readTypeName(code)}`, `  >('${code}'),`];
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
