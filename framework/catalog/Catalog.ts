import Ajv from 'ajv';
import { CatalogError } from './CatalogError';
import {
  CatalogDecl,
  ColumnDef,
  IndexDecl,
  pluginSchema,
  SeriesColumnDef,
  SeriesDecl,
  SeriesDef,
  TableDecl,
  TableDef,
} from './CatalogModel';
import { CATALOG_SCHEMA } from './CatalogSchema';
import { columnType } from './types/ColumnTypes';

const validateDecl = new Ajv({ allErrors: false, strict: true }).compile(CATALOG_SCHEMA);

/** Every table and series the instance exposes, validated, looked up by code. */
export class Catalog {
  /** Use Catalog.fromDeclarations() or Catalog.merge(). */
  constructor(
    readonly tables: ReadonlyMap<string, TableDef>,
    readonly series: ReadonlyMap<string, SeriesDef>,
  ) {}

  /** Validates declarations (schema, then cross-references) and builds the model; throws CatalogError. */
  static fromDeclarations(decl: unknown, source = 'tables.yaml'): Catalog {
    if (!validateDecl(decl)) {
      const err = validateDecl.errors![0];
      const detail = err.keyword === 'additionalProperties' ? `unknown property '${(err.params as { additionalProperty: string }).additionalProperty}'` : err.message ?? 'invalid';
      throw new CatalogError(err.instancePath, detail, source);
    }
    const catalog = decl as CatalogDecl;
    const tables = new Map<string, TableDef>();
    const series = new Map<string, SeriesDef>();
    for (const [plugin, pdecl] of Object.entries(catalog.plugins)) {
      for (const [code, tdecl] of Object.entries(pdecl.tables ?? {})) {
        const path = `/plugins/${plugin}/tables/${code}`;
        if (tables.has(code)) throw new CatalogError(path, `table '${code}' is also declared by plugin '${tables.get(code)!.plugin}'`, source);
        tables.set(code, buildTable(plugin, code, tdecl, path, source));
      }
    }
    for (const [plugin, pdecl] of Object.entries(catalog.plugins)) {
      for (const [code, sdecl] of Object.entries(pdecl.series ?? {})) {
        const path = `/plugins/${plugin}/series/${code}`;
        if (series.has(code)) throw new CatalogError(path, `series '${code}' is declared twice`, source);
        series.set(code, buildSeries(plugin, code, sdecl, tables, path, source));
      }
    }
    return new Catalog(tables, series);
  }

  /** Merges catalogs of independent sources (tables.yaml, decorator plugins); codes must not clash. */
  static merge(parts: Catalog[]): Catalog {
    const tables = new Map<string, TableDef>();
    const series = new Map<string, SeriesDef>();
    for (const part of parts) {
      for (const [code, t] of part.tables) {
        if (tables.has(code)) throw new CatalogError(`/plugins/${t.plugin}/tables/${code}`, `table '${code}' is also declared by plugin '${tables.get(code)!.plugin}'`);
        tables.set(code, t);
      }
      for (const [code, s] of part.series) {
        if (series.has(code)) throw new CatalogError(`/plugins/${s.plugin}/series/${code}`, `series '${code}' is declared twice`);
        series.set(code, s);
      }
    }
    return new Catalog(tables, series);
  }

  /** The part of the catalog owned by the given plugins (a disabled plugin's tables do not exist). */
  forPlugins(enabled: ReadonlySet<string>): Catalog {
    return new Catalog(
      new Map([...this.tables].filter(([, t]) => enabled.has(t.plugin))),
      new Map([...this.series].filter(([, s]) => enabled.has(s.plugin))),
    );
  }

  table(code: string): TableDef | undefined {
    return this.tables.get(code);
  }
}

function buildTable(plugin: string, code: string, decl: TableDecl, path: string, source: string): TableDef {
  const columns: ColumnDef[] = decl.columns.map((c, i) => {
    try {
      return {
        name: c.name,
        type: columnType(c.type),
        nullable: c.nullable ?? false,
        description: c.description ?? '',
        inDefault: c.default ?? true,
      };
    } catch (e) {
      throw new CatalogError(`${path}/columns/${i}/type`, (e as Error).message, source);
    }
  });
  const byName = new Map<string, ColumnDef>();
  columns.forEach((c, i) => {
    if (byName.has(c.name)) throw new CatalogError(`${path}/columns/${i}/name`, `duplicate column '${c.name}'`, source);
    byName.set(c.name, c);
  });
  if (columns[0].name !== 'row_id' || columns[0].type.name !== 'uint64') {
    throw new CatalogError(`${path}/columns/0`, "the first column must be 'row_id' of type uint64", source);
  }
  const indexes = (decl.indexes ?? []).map((ix, i) => {
    const idx: IndexDecl = Array.isArray(ix) ? { columns: ix } : ix;
    for (const col of idx.columns) {
      if (!byName.has(col)) throw new CatalogError(`${path}/indexes/${i}`, `index names unknown column '${col}'`, source);
    }
    return { columns: idx.columns, unique: idx.unique ?? false };
  });
  if (decl.height_column !== undefined && !byName.has(decl.height_column)) {
    throw new CatalogError(`${path}/height_column`, `unknown column '${decl.height_column}'`, source);
  }
  if (decl.orphan_column !== undefined) {
    const orphan = byName.get(decl.orphan_column);
    if (!orphan || orphan.type.name !== 'bool') throw new CatalogError(`${path}/orphan_column`, `'${decl.orphan_column}' is not a bool column`, source);
    if (decl.height_column === undefined) throw new CatalogError(`${path}/orphan_column`, 'an orphan column needs a height_column', source);
  }
  return {
    code,
    plugin,
    schema: pluginSchema(plugin),
    storage: decl.storage ?? code,
    description: decl.description ?? '',
    kind: decl.kind ?? 'append',
    heightColumn: decl.height_column,
    orphanColumn: decl.orphan_column,
    columns,
    indexes,
    column: (name: string) => byName.get(name),
  };
}

function buildSeries(
  plugin: string,
  code: string,
  decl: SeriesDecl,
  tables: Map<string, TableDef>,
  path: string,
  source: string,
): SeriesDef {
  const table = tables.get(decl.table);
  if (!table) throw new CatalogError(`${path}/table`, `unknown table '${decl.table}'`, source);
  const timeName = decl.time_column ?? 'time';
  const timeColumn = table.column(timeName);
  if (!timeColumn || timeColumn.type.name !== 'datetime') {
    throw new CatalogError(`${path}/time_column`, `table '${table.code}' has no datetime column '${timeName}'`, source);
  }
  const seen = new Set<string>();
  const columns: SeriesColumnDef[] = decl.columns.map((c, i) => {
    if (seen.has(c.name)) throw new CatalogError(`${path}/columns/${i}/name`, `duplicate column '${c.name}'`, source);
    seen.add(c.name);
    if (c.agg === 'count') return { name: c.name, agg: c.agg };
    const src = table.column(c.source ?? c.name);
    if (!src) throw new CatalogError(`${path}/columns/${i}`, `table '${table.code}' has no column '${c.source ?? c.name}'`, source);
    return { name: c.name, agg: c.agg, source: src };
  });
  return { code, plugin, table, timeColumn, description: decl.description ?? '', columns };
}
