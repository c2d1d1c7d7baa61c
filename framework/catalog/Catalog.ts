import Ajv from 'ajv';
import { CatalogError } from './CatalogError';
import {
  CatalogDecl,
  ColumnDecl,
  ColumnDef,
  ColumnFollows,
  ColumnLookup,
  ColumnMapsTo,
  ColumnPacks,
  ColumnVia,
  IndexDecl,
  IndexDef,
  isFilterOnly,
  isStored,
  pluginSchema,
  RouteDef,
  SeriesColumnDef,
  SeriesCondition,
  SeriesDecl,
  SeriesDef,
  TableDecl,
  TableDef,
} from './CatalogModel';
import { CATALOG_SCHEMA } from './CatalogSchema';
import { buildRoute } from './RouteDeclarations';
import { buildParts } from './TableParts';
import { columnType } from './types/ColumnTypes';
import { HashType } from './types/HashType';
import { ValueError, type ColumnType } from './types/ColumnType';

const validateDecl = new Ajv({ allErrors: false, strict: true }).compile(CATALOG_SCHEMA);

/** Every table, series and declared route the instance exposes, validated, looked up by code (routes by path). */
export class Catalog {
  /** Use Catalog.fromDeclarations() or Catalog.merge(). */
  constructor(
    readonly tables: ReadonlyMap<string, TableDef>,
    readonly series: ReadonlyMap<string, SeriesDef>,
    readonly routes: ReadonlyMap<string, RouteDef> = new Map(),
  ) {}

  /** Validates declarations (schema, then cross-references) and builds the model; throws CatalogError. */
  static fromDeclarations(decl: unknown, source = 'tables.yaml'): Catalog {
    if (!validateDecl(decl)) {
      const err = validateDecl.errors![0];
      const detail =
        err.keyword === 'additionalProperties'
          ? `unknown property '${(err.params as { additionalProperty: string }).additionalProperty}'`
          : (err.message ?? 'invalid');
      throw new CatalogError(err.instancePath, detail, source);
    }
    const catalog = decl as CatalogDecl;
    const tables = new Map<string, TableDef>();
    const series = new Map<string, SeriesDef>();
    for (const [plugin, pdecl] of Object.entries(catalog.plugins)) {
      for (const [code, tdecl] of Object.entries(pdecl.tables ?? {})) {
        const path = `/plugins/${plugin}/tables/${code}`;
        if (tables.has(code))
          throw new CatalogError(
            path,
            `table '${code}' is also declared by plugin '${tables.get(code)!.plugin}'`,
            source,
          );
        tables.set(code, buildTable(plugin, code, tdecl, path, source, tables));
      }
    }
    checkDerivations(tables, source);
    for (const [plugin, pdecl] of Object.entries(catalog.plugins)) {
      for (const [code, sdecl] of Object.entries(pdecl.series ?? {})) {
        const path = `/plugins/${plugin}/series/${code}`;
        if (series.has(code)) throw new CatalogError(path, `series '${code}' is declared twice`, source);
        series.set(code, buildSeries(plugin, code, sdecl, tables, path, source));
      }
    }
    const routes = new Map<string, RouteDef>();
    for (const [plugin, pdecl] of Object.entries(catalog.plugins)) {
      (pdecl.routes ?? []).forEach((rdecl, i) => {
        const path = `/plugins/${plugin}/routes/${i}`;
        if (routes.has(rdecl.path))
          throw new CatalogError(`${path}/path`, `route '${rdecl.path}' is declared twice`, source);
        routes.set(rdecl.path, buildRoute(plugin, rdecl, tables, path, source));
      });
    }
    return new Catalog(tables, series, routes);
  }

  /** Merges catalogs of independent sources (tables.yaml, decorator plugins); codes must not clash. */
  static merge(parts: Catalog[]): Catalog {
    const tables = new Map<string, TableDef>();
    const series = new Map<string, SeriesDef>();
    const routes = new Map<string, RouteDef>();
    for (const part of parts) {
      for (const [code, t] of part.tables) {
        if (tables.has(code))
          throw new CatalogError(
            `/plugins/${t.plugin}/tables/${code}`,
            `table '${code}' is also declared by plugin '${tables.get(code)!.plugin}'`,
          );
        tables.set(code, t);
      }
      for (const [code, s] of part.series) {
        if (series.has(code))
          throw new CatalogError(`/plugins/${s.plugin}/series/${code}`, `series '${code}' is declared twice`);
        series.set(code, s);
      }
      for (const [path, r] of part.routes) {
        if (routes.has(path))
          throw new CatalogError(`/plugins/${r.plugin}/routes`, `route '${path}' is declared twice`);
        routes.set(path, r);
      }
    }
    return new Catalog(tables, series, routes);
  }

  /** The part of the catalog owned by the given plugins (a disabled plugin's tables and routes do not exist). */
  forPlugins(enabled: ReadonlySet<string>): Catalog {
    // A derived table is recomputed from its sources on every rollback: they must be indexed too.
    for (const t of this.tables.values()) {
      if (!enabled.has(t.plugin)) continue;
      for (const from of t.derivedFrom) {
        const owner = this.tables.get(from)?.plugin;
        if (owner === undefined || !enabled.has(owner)) {
          throw new Error(
            `table '${t.code}' of plugin '${t.plugin}' is derived from '${from}'${owner ? ` of plugin '${owner}'` : ''}, which no enabled plugin declares: enable ${owner ? `'${owner}'` : 'its plugin'} too, or disable '${t.plugin}'`,
          );
        }
      }
    }
    return new Catalog(
      new Map([...this.tables].filter(([, t]) => enabled.has(t.plugin))),
      new Map([...this.series].filter(([, s]) => enabled.has(s.plugin))),
      new Map([...this.routes].filter(([, r]) => enabled.has(r.plugin))),
    );
  }

  table(code: string): TableDef | undefined {
    return this.tables.get(code);
  }

  /** A table a plugin needs: throws at start-up when the enabled plugins' catalog lacks it. */
  require(code: string): TableDef {
    const t = this.tables.get(code);
    if (!t) throw new Error(`table '${code}' is not in the catalog of the enabled plugins`);
    return t;
  }
}

function buildTable(
  plugin: string,
  code: string,
  decl: TableDecl,
  path: string,
  source: string,
  earlier: ReadonlyMap<string, TableDef>,
): TableDef {
  const all: ColumnDef[] = decl.columns.map((c, i) => {
    let type: ColumnType;
    try {
      type = columnType(c.type);
    } catch (e) {
      throw new CatalogError(`${path}/columns/${i}/type`, (e as Error).message, source);
    }
    const column: ColumnDef = {
      name: c.name,
      type,
      nullable: c.nullable ?? false,
      description: c.description ?? '',
      inDefault: c.default ?? true,
      ...(c.sparse ? { sparse: true } : {}),
    };
    if (c.sparse) checkSparse(c, column, decl, `${path}/columns/${i}/sparse`, source);
    if (c.hidden_values === undefined) return column;
    try {
      for (const v of c.hidden_values) type.parse(v);
      return { ...column, hiddenValues: c.hidden_values };
    } catch (e) {
      throw new CatalogError(`${path}/columns/${i}/hidden_values`, (e as Error).message, source);
    }
  });
  const byName = new Map<string, ColumnDef>();
  all.forEach((c, i) => {
    if (byName.has(c.name)) throw new CatalogError(`${path}/columns/${i}/name`, `duplicate column '${c.name}'`, source);
    byName.set(c.name, c);
  });
  decl.columns.forEach((c, i) => {
    if (c.filter_via)
      all[i] = {
        ...all[i],
        via: columnVia(
          c,
          byName,
          earlier,
          { storage: decl.storage ?? code, kind: decl.kind ?? 'append' },
          `${path}/columns/${i}/filter_via`,
          source,
        ),
      };
    if (c.packs) all[i] = { ...all[i], packs: columnPacks(c, byName, decl, `${path}/columns/${i}/packs`, source) };
    if (c.follows_height)
      all[i] = {
        ...all[i],
        followsHeight: columnFollows(c, all[i], decl, earlier, `${path}/columns/${i}/follows_height`, source),
      };
    byName.set(c.name, all[i]);
  });
  const virtualNames = new Set(decl.columns.filter(isVirtual).map((c) => c.name));
  const home = { schema: pluginSchema(plugin), storage: decl.storage ?? code };
  const virtualColumns = decl.columns.flatMap((c, i) =>
    virtualColumn(c, byName, virtualNames, earlier, home, `${path}/columns/${i}`, source),
  );
  for (const v of virtualColumns) byName.set(v.name, v);
  const columns = all.filter((c) => !virtualColumns.some((v) => v.name === c.name));
  if (columns[0].name !== 'row_id' || columns[0].type.name !== 'uint64') {
    throw new CatalogError(`${path}/columns/0`, "the first column must be 'row_id' of type uint64", source);
  }
  const indexes = (decl.indexes ?? []).map((ix, i) => {
    const idx: IndexDecl = Array.isArray(ix) ? { columns: ix } : ix;
    for (const col of idx.columns) {
      if (!byName.has(col))
        throw new CatalogError(`${path}/indexes/${i}`, `index names unknown column '${col}'`, source);
      if (!isStored(byName.get(col)!))
        throw new CatalogError(
          `${path}/indexes/${i}`,
          `'${col}' is not stored in the rows: index the columns it is read from`,
          source,
        );
      if (byName.get(col)!.sparse)
        throw new CatalogError(
          `${path}/indexes/${i}`,
          `'${col}' is sparse (its zeros are NULL): it cannot be indexed`,
          source,
        );
    }
    const using = idx.using ?? 'btree';
    if (using !== 'btree' && idx.unique)
      throw new CatalogError(`${path}/indexes/${i}`, `a ${using} index cannot be unique`, source);
    if (using === 'hash' && idx.columns.length > 1)
      throw new CatalogError(`${path}/indexes/${i}`, 'a hash index has one column', source);
    if (idx.except && (idx.unique || using !== 'btree'))
      throw new CatalogError(`${path}/indexes/${i}/except`, 'only a non-unique B-tree leaves rows out', source);
    const lead = byName.get(idx.columns[0])!;
    const except = (idx.except ?? []).map((v, j) => {
      try {
        return lead.type.parse(v);
      } catch (e) {
        throw new CatalogError(
          `${path}/indexes/${i}/except/${j}`,
          e instanceof ValueError ? e.message : String(e),
          source,
        );
      }
    });
    return { columns: idx.columns, unique: idx.unique ?? false, using, except, exceptArgs: idx.except ?? [] };
  });
  decl.columns.forEach((c, i) => {
    if (c.maps_to && !ledByBtree(indexes, c.maps_to.by))
      throw new CatalogError(
        `${path}/columns/${i}/maps_to/by`,
        `no B-tree index of this table is led by '${c.maps_to.by}'`,
        source,
      );
  });
  if (decl.height_column !== undefined && !byName.has(decl.height_column)) {
    throw new CatalogError(`${path}/height_column`, `unknown column '${decl.height_column}'`, source);
  }
  if (decl.orphan_column !== undefined) {
    const orphan = byName.get(decl.orphan_column);
    if (!orphan || orphan.type.name !== 'bool')
      throw new CatalogError(`${path}/orphan_column`, `'${decl.orphan_column}' is not a bool column`, source);
    if (decl.height_column === undefined)
      throw new CatalogError(`${path}/orphan_column`, 'an orphan column needs a height_column', source);
  }
  if (decl.settles_after && (decl.height_column === undefined || (decl.kind ?? 'append') !== 'append')) {
    throw new CatalogError(
      `${path}/settles_after`,
      'only an append table with a height_column settles after later blocks',
      source,
    );
  }
  if (decl.partition && (decl.partition.by !== decl.height_column || (decl.kind ?? 'append') !== 'append'))
    throw new CatalogError(`${path}/partition/by`, 'only an append table is partitioned, by its height_column', source);
  if (decl.partition && indexes.some((ix) => ix.unique))
    throw new CatalogError(
      `${path}/partition`,
      'a partitioned table has no unique index (each partition has its own)',
      source,
    );
  const built: TableDef = {
    code,
    plugin,
    schema: pluginSchema(plugin),
    storage: decl.storage ?? code,
    description: decl.description ?? '',
    kind: decl.kind ?? 'append',
    heightColumn: decl.height_column,
    orphanColumn: decl.orphan_column,
    settlesAfter: decl.settles_after ?? 0,
    derivedFrom: decl.derived_from ?? [],
    columns,
    virtualColumns,
    indexes,
    column: (name: string) => byName.get(name),
    partitionSpan: decl.partition?.span,
  };
  if (!decl.parts) return built;
  const parts = buildParts(built, decl, path, source, (c, d, p) => buildTable(plugin, c, d, p, source, earlier));
  return { ...built, parts };
}

/** A derived table names other tables of the same declarations (in any order), never itself. */
function checkDerivations(tables: ReadonlyMap<string, TableDef>, source: string): void {
  for (const t of tables.values()) {
    t.derivedFrom.forEach((from, i) => {
      if (from === t.code || !tables.has(from)) {
        throw new CatalogError(
          `/plugins/${t.plugin}/tables/${t.code}/derived_from/${i}`,
          `'${from}' is not another table of the catalog`,
          source,
        );
      }
    });
  }
}

function isVirtual(c: ColumnDecl): boolean {
  return [c.alias_of, c.any_of, c.lookup, c.maps_to].some((v) => v !== undefined);
}

/** The table a column is declared in, as a filter-only column reads it. */
interface HomeTable {
  schema: string;
  storage: string;
}

/** A B-tree led by the column finds the rows at, or the first and last around, a value. */
function ledByBtree(indexes: readonly IndexDef[], column: string): boolean {
  return indexes.some((ix) => ix.using === 'btree' && ix.columns[0] === column);
}

/** An alias or filter-only column: its targets must be stored columns of its own type. */
function virtualColumn(
  decl: ColumnDecl,
  byName: Map<string, ColumnDef>,
  virtualNames: Set<string>,
  earlier: ReadonlyMap<string, TableDef>,
  home: HomeTable,
  path: string,
  source: string,
): ColumnDef[] {
  if (!isVirtual(decl)) return [];
  if ([decl.alias_of, decl.any_of, decl.lookup, decl.maps_to].filter((v) => v !== undefined).length > 1) {
    throw new CatalogError(path, 'a column is one of alias_of, any_of, lookup or maps_to', source);
  }
  const self = byName.get(decl.name)!;
  if (decl.lookup)
    return [
      { ...self, inDefault: false, lookup: columnLookup(decl, self, byName, virtualNames, earlier, path, source) },
    ];
  if (decl.maps_to)
    return [{ ...self, inDefault: false, mapsTo: columnMapsTo(decl, self, byName, virtualNames, home, path, source) }];
  const targets = (decl.any_of ?? [decl.alias_of!]).map((name) => {
    const target = byName.get(name);
    if (!target || virtualNames.has(name))
      throw new CatalogError(path, `'${decl.name}' names unknown column '${name}'`, source);
    if (decl.alias_of !== undefined && (!isStored(target) || target.sparse))
      throw new CatalogError(
        path,
        `'${decl.name}' is an alias of '${name}', which is not stored in the rows or is sparse`,
        source,
      );
    if (target.type.name !== self.type.name)
      throw new CatalogError(path, `'${decl.name}' is ${self.type.name} but '${name}' is ${target.type.name}`, source);
    return target;
  });
  return [
    decl.alias_of !== undefined ? { ...self, aliasOf: decl.alias_of } : { ...self, inDefault: false, anyOf: targets },
  ];
}

/**
 * A column mapped to another by a third (ColumnDecl.maps_to): both stored, `by` of its type (buildTable checks that it
 * leads a B-tree).
 */
function columnMapsTo(
  decl: ColumnDecl,
  self: ColumnDef,
  byName: Map<string, ColumnDef>,
  virtualNames: Set<string>,
  home: HomeTable,
  path: string,
  source: string,
): ColumnMapsTo {
  const spec = decl.maps_to!;
  const stored = (name: string): ColumnDef | undefined => {
    const c = byName.get(name);
    return c && !virtualNames.has(name) && isStored(c) && !c.sparse ? c : undefined;
  };
  const column = stored(spec.column);
  if (!column)
    throw new CatalogError(`${path}/maps_to/column`, `'${spec.column}' is not a stored column of this table`, source);
  const by = stored(spec.by);
  if (!by || by.type.name !== self.type.name)
    throw new CatalogError(
      `${path}/maps_to/by`,
      `'${spec.by}' is not a stored ${self.type.name} column of this table`,
      source,
    );
  return { schema: home.schema, storage: home.storage, column, by };
}

/** A lookup column: the other table is declared earlier, and its `by` columns have the `on` columns' types. */
function columnLookup(
  decl: ColumnDecl,
  self: ColumnDef,
  byName: Map<string, ColumnDef>,
  virtualNames: Set<string>,
  earlier: ReadonlyMap<string, TableDef>,
  path: string,
  source: string,
): ColumnLookup {
  const spec = decl.lookup!;
  const other = earlier.get(spec.table);
  if (!other)
    throw new CatalogError(
      `${path}/lookup/table`,
      `'${decl.name}' names table '${spec.table}', which is not declared before it`,
      source,
    );
  const column = other.column(spec.column);
  if (!column || isFilterOnly(column) || column.type.name !== self.type.name) {
    throw new CatalogError(
      `${path}/lookup/column`,
      `'${spec.table}' has no stored ${self.type.name} column '${spec.column}'`,
      source,
    );
  }
  const by = spec.by ?? spec.on;
  if (by.length !== spec.on.length)
    throw new CatalogError(`${path}/lookup/by`, `'by' pairs a column of '${spec.table}' with each of 'on'`, source);
  spec.on.forEach((name, i) => {
    const mine = byName.get(name);
    const theirs = other.column(by[i]);
    if (
      !mine ||
      virtualNames.has(name) ||
      !theirs ||
      isFilterOnly(theirs) ||
      theirs.aliasOf !== undefined ||
      mine.type.name !== theirs.type.name
    ) {
      throw new CatalogError(
        `${path}/lookup/on`,
        `'${name}' is not a stored column of the type of '${spec.table}.${by[i]}'`,
        source,
      );
    }
  });
  return { schema: other.schema, storage: other.storage, column, on: spec.on, by };
}

/**
 * A column following the height (ColumnDecl.follows_height): a stored column of an append table with
 * a height column; the earlier declared table has one too, and a B-tree led by the column, of the
 * same type, which finds the first (last) height at a value.
 */
function columnFollows(
  decl: ColumnDecl,
  self: ColumnDef,
  table: TableDecl,
  earlier: ReadonlyMap<string, TableDef>,
  path: string,
  source: string,
): ColumnFollows {
  const spec = decl.follows_height!;
  if (isVirtual(decl) || (table.kind ?? 'append') !== 'append' || table.height_column === undefined) {
    throw new CatalogError(
      path,
      `'${decl.name}' follows the height only as a stored column of an append table with a height column`,
      source,
    );
  }
  const other = earlier.get(spec.table);
  if (!other?.heightColumn)
    throw new CatalogError(
      `${path}/table`,
      `'${spec.table}' is not a table with a height column declared before this one`,
      source,
    );
  const column = other.column(spec.column);
  if (!column || !isStored(column) || column.type.name !== self.type.name || !ledByBtree(other.indexes, spec.column)) {
    throw new CatalogError(
      `${path}/column`,
      `'${spec.table}' has no stored ${self.type.name} column '${spec.column}' led by a B-tree index`,
      source,
    );
  }
  return {
    schema: other.schema,
    storage: other.storage,
    column: column.name,
    height: other.heightColumn,
    ...(other.orphanColumn ? { orphan: other.orphanColumn } : {}),
  };
}

/**
 * A column filtered through another table's column (a row id unless `value` names another): a stored
 * column of this table (not virtual: filters reach it by name), its `column` a stored column of the
 * same type as the earlier declared table's `value`, whose key column has this column's type and
 * names one row (a unique index, or an orphan column: one main-chain row).
 */
function columnVia(
  decl: ColumnDecl,
  byName: ReadonlyMap<string, ColumnDef>,
  earlier: ReadonlyMap<string, TableDef>,
  owner: { storage: string; kind: 'append' | 'mutable' },
  path: string,
  source: string,
): ColumnVia {
  const spec = decl.filter_via!;
  if (isVirtual(decl))
    throw new CatalogError(
      path,
      `'${decl.name}' is an alias or filter-only: filter_via is for a column of the rows`,
      source,
    );
  const other = earlier.get(spec.table);
  if (!other)
    throw new CatalogError(
      `${path}/table`,
      `'${decl.name}' names table '${spec.table}', which is not declared before it`,
      source,
    );
  const value = other.column(spec.value ?? 'row_id');
  const column = byName.get(spec.column);
  if (
    !value ||
    isFilterOnly(value) ||
    !column ||
    column.sparse ||
    column.type.name !== value.type.name ||
    !['uint64', 'int64'].includes(column.type.name)
  ) {
    throw new CatalogError(
      `${path}/column`,
      `'${spec.column}' is not an integer column of this table holding '${spec.table}'.'${spec.value ?? 'row_id'}'`,
      source,
    );
  }
  const key = other.column(spec.key);
  const self = byName.get(decl.name)!;
  if (!key || isFilterOnly(key) || key.aliasOf !== undefined || key.type.name !== self.type.name) {
    throw new CatalogError(
      `${path}/key`,
      `'${spec.table}' has no stored ${self.type.name} column '${spec.key}'`,
      source,
    );
  }
  if (
    !other.orphanColumn &&
    !other.indexes.some((ix) => ix.unique && ix.columns.length === 1 && ix.columns[0] === spec.key)
  ) {
    throw new CatalogError(
      `${path}/key`,
      `'${spec.table}' has no unique index on '${spec.key}': a value must name one row`,
      source,
    );
  }
  // A value given instead of a key is told apart by its digits: no hash or address is all digits.
  if (spec.by_value && (spec.value === undefined || !(self.type instanceof HashType || self.type.name === 'address'))) {
    throw new CatalogError(
      `${path}/by_value`,
      `by_value needs a declared value column and a hash or address column, never all digits`,
      source,
    );
  }
  const stored = spec.stored ?? true;
  // Read through the other table, a value must be the same for the row's whole life: rows only added.
  if (!stored && owner.kind !== 'append')
    throw new CatalogError(
      `${path}/stored`,
      `'${decl.name}' can be read through '${spec.table}' only in an append table`,
      source,
    );
  if (!isStored(key))
    throw new CatalogError(`${path}/key`, `'${spec.table}'.'${spec.key}' is itself read through another table`, source);
  return {
    column,
    schema: other.schema,
    storage: other.storage,
    key,
    value: value.name,
    byValue: spec.by_value ?? false,
    stored,
    owner: owner.storage,
    ...(other.orphanColumn ? { orphan: other.orphanColumn } : {}),
  };
}

/**
 * A sparse column: a non-null integer or tez column of an append table (its NULL means zero; a
 * mutable row would be read back by the indexer as it is stored), and not the table's height.
 */
function checkSparse(decl: ColumnDecl, column: ColumnDef, table: TableDecl, path: string, source: string): void {
  const why = column.nullable
    ? 'is nullable: its NULL would read as 0'
    : !['uint64', 'int64', 'money'].includes(column.type.name)
      ? `is ${column.type.name}, not an integer or tez column`
      : (table.kind ?? 'append') !== 'append'
        ? 'is in a mutable table'
        : isVirtual(decl) ||
            decl.filter_via ||
            decl.packs ||
            decl.name === 'row_id' ||
            decl.name === table.height_column
          ? 'is an alias, filter-only, filtered through another table, packed, the row id or the height'
          : undefined;
  if (why) throw new CatalogError(path, `'${decl.name}' cannot be sparse: it ${why}`, source);
}

/** A packed column: a stored integer column made of two other stored integer columns of the table. */
function columnPacks(
  decl: ColumnDecl,
  byName: ReadonlyMap<string, ColumnDef>,
  table: TableDecl,
  path: string,
  source: string,
): ColumnPacks {
  const spec = decl.packs!;
  const integer = (c: ColumnDef | undefined): c is ColumnDef =>
    c !== undefined && (c.type.name === 'uint64' || c.type.name === 'int64') && !c.nullable && !c.sparse;
  if (isVirtual(decl) || !integer(byName.get(decl.name)))
    throw new CatalogError(path, `'${decl.name}' is not a stored, non-null integer column`, source);
  const [high, low] = [byName.get(spec.high), byName.get(spec.low)];
  if (!integer(high) || !integer(low) || high.name === decl.name || low.name === decl.name || high === low) {
    throw new CatalogError(
      path,
      `'${spec.high}' and '${spec.low}' are not two other stored, non-null integer columns`,
      source,
    );
  }
  const stored = spec.stored ?? true;
  if (!stored && (table.kind ?? 'append') !== 'append')
    throw new CatalogError(
      `${path}/stored`,
      `'${decl.name}' can be computed on every read only in an append table`,
      source,
    );
  return { high, low, bits: spec.bits, stored };
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
    if (!src || !isStored(src))
      throw new CatalogError(
        `${path}/columns/${i}`,
        `table '${table.code}' has no stored column '${c.source ?? c.name}'`,
        source,
      );
    if ((c.agg === 'wmean') !== (c.weight !== undefined))
      throw new CatalogError(`${path}/columns/${i}`, "'weight' goes with agg 'wmean', and only with it", source);
    if (c.weight === undefined) return { name: c.name, agg: c.agg, source: src };
    const weight = table.column(c.weight);
    if (!weight)
      throw new CatalogError(
        `${path}/columns/${i}/weight`,
        `table '${table.code}' has no column '${c.weight}'`,
        source,
      );
    return { name: c.name, agg: c.agg, source: src, weight };
  });
  const partition = (decl.partition ?? []).map((name, i) => {
    const c = table.column(name);
    if (!c || !isStored(c) || c.sparse)
      throw new CatalogError(
        `${path}/partition/${i}`,
        `table '${table.code}' has no stored, non-sparse column '${name}'`,
        source,
      );
    return c;
  });
  const where = Object.entries(decl.where ?? {}).map(([key, arg]): SeriesCondition => {
    const [name, op = 'eq'] = key.split('.') as [string, SeriesCondition['op'] | undefined];
    const c = table.column(name);
    const at = `${path}/where/${key}`;
    if (!c || !isStored(c) || c.sparse) {
      throw new CatalogError(at, `table '${table.code}' has no stored, non-sparse column '${name}'`, source);
    }
    if (!c.type.operators.includes(op)) throw new CatalogError(at, `column '${name}' has no operator '${op}'`, source);
    let value: unknown;
    try {
      value = c.type.parse(String(arg));
    } catch (e) {
      if (e instanceof ValueError) throw new CatalogError(at, e.message, source);
      throw e;
    }
    if (!['string', 'number', 'boolean'].includes(typeof value)) {
      throw new CatalogError(at, `a ${c.type.name} value cannot be a condition`, source);
    }
    return { column: c, op, value: value as SeriesCondition['value'] };
  });
  return { code, plugin, table, timeColumn, partition, where, description: decl.description ?? '', columns };
}
