import { CatalogError } from './CatalogError';
import {
  type ColumnDecl,
  isStored,
  storedColumns,
  type TableDecl,
  type TableDef,
  type TableParts,
} from './CatalogModel';
import { ValueError } from './types/ColumnType';

type BuildTable = (code: string, decl: TableDecl, path: string) => TableDef;

/**
 * The tables of a table stored in parts (TablePartsDecl): its main table, `{storage}_main`, with every
 * column and index, and one narrow table per value of `by`, with the declared columns and indexes.
 * Every other stored column must have a value the narrow rows all share: declared (`fixed`), or
 * empty (NULL for nullable and sparse columns, false for flags), or follow the height (the view reads it
 * from the table it follows). `types` narrows some columns' storage (op_n in 2 bytes, kind as an enum).
 */
export function buildParts(
  table: TableDef,
  decl: TableDecl,
  path: string,
  source: string,
  build: BuildTable,
): TableParts {
  const spec = decl.parts!;
  const at = `${path}/parts`;
  if (table.kind !== 'append' || table.heightColumn === undefined || table.orphanColumn !== undefined)
    throw new CatalogError(
      at,
      'only an append table with a height_column and no orphan column is stored in parts',
      source,
    );
  const by = table.column(spec.by);
  if (!by || !isStored(by) || by.nullable)
    throw new CatalogError(`${at}/by`, `'${spec.by}' is not a stored non-null column`, source);
  const kept = new Set(spec.columns);
  for (const name of ['row_id', table.heightColumn]) if (!kept.has(name)) kept.add(name);
  for (const name of kept) {
    const c = table.column(name);
    if (!c || !isStored(c) || name === spec.by)
      throw new CatalogError(
        `${at}/columns`,
        `'${name}' is not a stored column of the table (other than 'by')`,
        source,
      );
  }
  for (const name of Object.keys(spec.types ?? {}))
    if (!kept.has(name)) throw new CatalogError(`${at}/types/${name}`, `'${name}' is not one of the columns`, source);
  const rest = storedColumns(table).filter((c) => !kept.has(c.name) && c.name !== spec.by);
  // A column following the height (cycle, time) is read from the table it follows (block), by the height.
  const followed = rest.filter((c) => c.followsHeight !== undefined && spec.fixed?.[c.name] === undefined);
  const constants = rest
    .filter((c) => !followed.includes(c))
    .map((column) => {
      const fixed = spec.fixed?.[column.name];
      if (fixed !== undefined)
        return { column, value: parseValue(column.type, String(fixed), `${at}/fixed/${column.name}`, source) };
      if (column.nullable || column.sparse) return { column, value: null };
      if (column.type.name === 'bool') return { column, value: false };
      throw new CatalogError(`${at}/fixed`, `column '${column.name}' needs a fixed value in the narrow tables`, source);
    });
  // In the declared order (fixed-width columns first, then text: no alignment padding between them).
  const columns = [...kept].map((n) => {
    const c = decl.columns.find((d: ColumnDecl) => d.name === n)!;
    return spec.types?.[n] ? { ...c, type: spec.types[n] } : c;
  });
  const narrowDecl = (storage: string): TableDecl => ({
    storage,
    kind: 'append',
    height_column: table.heightColumn,
    partition: decl.partition,
    columns,
    indexes: spec.indexes ?? [],
  });
  return {
    // Its indexes keep the table's names (op_hash_idx…): a database of the schema before keeps them as they are.
    main: {
      ...build(table.code, { ...decl, parts: undefined, storage: `${table.storage}_main` }, path),
      indexPrefix: table.storage,
    },
    narrow: Object.entries(spec.tables).map(([value, storage]) => {
      const narrowTable = build(storage, narrowDecl(storage), `${at}/tables/${value}`);
      return {
        table: narrowTable,
        value: parseValue(by.type, value, `${at}/tables/${value}`, source),
        narrowed: storedColumns(narrowTable).filter((c) => c.type.name !== table.column(c.name)!.type.name),
      };
    }),
    by,
    constants,
    followed,
  };
}

function parseValue(type: TableDef['columns'][number]['type'], arg: string, path: string, source: string) {
  try {
    return type.parse(arg);
  } catch (e) {
    throw new CatalogError(path, e instanceof ValueError ? e.message : String(e), source);
  }
}
