import type { Catalog } from '../Catalog';
import {
  type ColumnDef,
  isStored,
  type RouteDef,
  type SeriesColumnDef,
  type SeriesCondition,
  type SeriesDef,
  type TableDef,
} from '../CatalogModel';
import { EnumType } from '../types/EnumType';

export const DOC_BEGIN = '<!-- generated from tables.yaml by `npm run gen`: edit tables.yaml, not this part -->';
export const DOC_END = '<!-- end of the generated part -->';

/** Long enum declarations go to a footnote under the table. */
const INLINE_ENUM = 40;

/** The `## Tables`, `## Time-series` and `## Declared routes` sections of docs/tables.md, from the catalog. */
export function renderTableSections(catalog: Catalog): string {
  const out = ['## Tables', ''];
  for (const t of catalog.tables.values()) out.push(...tableSection(t));
  out.push('## Time-series', '');
  for (const s of catalog.series.values()) out.push(...seriesSection(s));
  out.push(
    '## Declared routes',
    '',
    'Explorer routes served from `routes:` declarations by the generic engine (docs/plugins.md).',
    '',
  );
  out.push('| path | plugin | kind | table | fields |', '|---|---|---|---|---|');
  for (const r of catalog.routes.values()) out.push(routeRow(r));
  out.push('');
  return out.join('\n');
}

function routeRow(r: RouteDef): string {
  const fields = r.fields.map(
    (f) => `\`${f.name}\`${f.name !== f.column.name ? ` (${f.column.name})` : ''}${f.render ? ` ${f.render}` : ''}`,
  );
  return `| \`${r.path}\` | \`${r.plugin}\` | ${r.kind} | \`${r.table.code}\` | ${r.record ? `record \`${r.record}\`` : fields.join(', ')} |`;
}

/** docs/tables.md with its generated part replaced (the part between the markers). */
export function withTableSections(doc: string, catalog: Catalog): string {
  const begin = doc.indexOf(DOC_BEGIN);
  const end = doc.indexOf(DOC_END);
  if (begin < 0 || end < begin) throw new Error('docs/tables.md lacks the generated-part markers');
  return `${doc.slice(0, begin)}${DOC_BEGIN}\n\n${renderTableSections(catalog)}${DOC_END}${doc.slice(end + DOC_END.length)}`;
}

function sentence(s: string): string {
  const t = s.trim();
  return t.length === 0 ? '' : `${t[0].toUpperCase()}${t.slice(1)}${t.endsWith('.') ? '' : '.'}`;
}

const cell = (s: string): string => s.replace(/\|/g, '\\|');

function tableSection(t: TableDef): string[] {
  const inDefault = t.columns.filter((c) => c.inDefault).length;
  const head = [`plugin: \`${t.plugin}\``, `kind: \`${t.kind}\``];
  head.push(t.heightColumn ? `height column: \`${t.heightColumn}\`` : 'no height column');
  head.push(`${t.columns.length} columns (${inDefault} in the default set)`);
  const out = [`### \`${t.code}\``, '', sentence(t.description), '', `- ${head.join(' · ')}`];
  if (t.derivedFrom.length)
    out.push(
      `- derived from ${t.derivedFrom.map((c) => `\`${c}\``).join(', ')} (re-derived by its plugin on a rollback)`,
    );
  if (t.indexes.length)
    out.push(
      `- indexes: ${t.indexes.map((i) => `\`${i.columns.join(', ')}\`${i.unique ? ' (unique)' : ''}${i.except.length ? ` (without ${i.exceptArgs.join(', ')})` : ''}`).join(', ')}`,
    );
  const via = t.columns.filter((c) => c.via);
  if (via.length)
    out.push(
      `- equality filters through an id column: ${via.map((c) => `\`${c.name}\` through \`${c.via!.column.name}\``).join(', ')}`,
    );
  const read = via.filter((c) => !isStored(c));
  if (read.length)
    out.push(
      `- not stored, read through their id column: ${read.map((c) => `\`${c.name}\` (\`${c.via!.storage}.${c.via!.key.name}\`)`).join(', ')}`,
    );
  const sparse = t.columns.filter((c) => c.sparse);
  if (sparse.length)
    out.push(`- sparse (a zero is stored as NULL and read as 0): ${sparse.map((c) => `\`${c.name}\``).join(', ')}`);
  for (const c of t.columns.filter((x) => x.packs)) {
    const computed = c.packs!.stored ? '' : ', computed on every read (not stored)';
    out.push(
      `- \`${c.name}\` is \`${c.packs!.high.name} << ${c.packs!.bits} | ${c.packs!.low.name}\`${computed}: its filters run on (\`${c.packs!.high.name}\`, \`${c.packs!.low.name}\`)`,
    );
  }
  out.push('', '| # | column | type | null | default | meaning |', '|---|---|---|---|---|---|');
  const notes: ColumnDef[] = [];
  t.columns.forEach((c, i) => {
    const long = c.type instanceof EnumType && c.type.name.length > INLINE_ENUM;
    if (long) notes.push(c);
    out.push(
      `| ${i + 1} | \`${c.name}\` | ${long ? 'enum ¹' : cell(c.type.name)} | ${c.nullable ? 'yes' : ''} | ${c.inDefault ? 'yes' : 'no'} | ${cell(c.description)} |`,
    );
  });
  if (notes.length)
    out.push(
      '',
      `¹ Values: ${notes.map((c) => `\`${c.name}\`: ${(c.type as EnumType).values.map((v) => `\`${v}\``).join(' ')}`).join('; ')}.`,
    );
  out.push('');
  return out;
}

/** `count`, `sum`, … and the source column where it is not the series column's own name. */
function aggregation(c: SeriesColumnDef): string {
  return c.source && c.source.name !== c.name ? `${c.agg} of \`${c.source.name}\`` : c.agg;
}

function conditionText(w: SeriesCondition): string {
  return `\`${w.column.name}.${w.op}=${w.value}\``;
}

function seriesSection(s: SeriesDef): string[] {
  const out = [
    `### \`${s.code}\``,
    '',
    sentence(s.description),
    '',
    `- plugin: \`${s.plugin}\` · source table: \`${s.table.code}\` · bucket time from: \`${s.timeColumn.name}\` · ${s.columns.length} columns after \`time\``,
    ...(s.partition.length > 0 ? [`- rollups kept per \`${s.partition.map((c) => c.name).join('`, `')}\``] : []),
    ...(s.where.length > 0 ? [`- rows: only those with ${s.where.map(conditionText).join(', ')}`] : []),
    '',
    '| # | column | aggregation | source column type |',
    '|---|---|---|---|',
    `| 0 | \`time\` | bucket start | ${s.timeColumn.type.name} |`,
  ];
  s.columns.forEach((c, i) =>
    out.push(
      `| ${i + 1} | \`${c.name}\` | ${aggregation(c)} | ${c.source ? cell(c.source.type.name) : 'rows in bucket'} |`,
    ),
  );
  out.push('');
  return out;
}
