import { CatalogError } from './CatalogError';
import {
  ColumnDef,
  isFilterOnly,
  RouteDecl,
  RouteDef,
  RouteFieldDef,
  RouteRequirementDef,
  TableDef,
} from './CatalogModel';
import { FilterName, withFilterNames } from './FilterNames';

/**
 * Checks a declared route against the catalog's tables and builds its model. Why here: a route that
 * names an unknown table, column or path parameter must stop the start-up (or `npm run gen`) with the
 * declaration's location, like a bad column type, not fail at the first request.
 */
export function buildRoute(
  plugin: string,
  decl: RouteDecl,
  tables: ReadonlyMap<string, TableDef>,
  path: string,
  source: string,
): RouteDef {
  const fail = (at: string, reason: string): never => {
    throw new CatalogError(`${path}${at}`, reason, source);
  };
  const tableOf = (code: string, at: string): TableDef => tables.get(code) ?? fail(at, `unknown table '${code}'`);
  const columnOf = (table: TableDef, name: string, at: string): ColumnDef => {
    const c = table.column(name);
    if (!c || isFilterOnly(c)) return fail(at, `table '${table.code}' has no column '${name}'`);
    return c;
  };
  const table = tableOf(decl.table, '/table');
  const inPath = [...decl.path.matchAll(/:(\w+)/g)].map((m) => m[1]);
  const declared = Object.keys(decl.params ?? {});
  const missing = inPath.find((p) => !declared.includes(p)) ?? declared.find((p) => !inPath.includes(p));
  if (missing !== undefined) fail('/params', `path parameter '${missing}' must be in both the path and params`);
  const params = Object.entries(decl.params ?? {}).map(([name, p]) => {
    const names = typeof p.column === 'string' ? [p.column] : p.column;
    const columns = names.map((c, i) =>
      columnOf(table, c, `/params/${name}/column${typeof p.column === 'string' ? '' : `/${i}`}`),
    );
    return { name, columns, what: p.what ?? names[0], ...(p.resolve ? { resolve: p.resolve } : {}) };
  });

  if (decl.record !== undefined && decl.fields !== undefined)
    fail('/fields', "a route shaped by a 'record' lists no 'fields'");
  if (decl.switches !== undefined && decl.record === undefined)
    fail('/switches', "switches are handed to a record shaper: the route needs a 'record'");
  const seen = new Set<string>();
  const fields: RouteFieldDef[] =
    decl.record !== undefined
      ? []
      : (decl.fields ?? table.columns.map((c) => c.name)).map((f, i) => {
          const spec = typeof f === 'string' ? { name: f } : f;
          if (seen.has(spec.name)) fail(`/fields/${i}`, `duplicate field '${spec.name}'`);
          seen.add(spec.name);
          return {
            name: spec.name,
            column: columnOf(table, spec.column ?? spec.name, `/fields/${i}`),
            ...(spec.render ? { render: spec.render } : {}),
          };
        });

  const objectOnly = (['not_found', 'final_height'] as const).filter((k) => decl[k] !== undefined);
  const listOnly = (['order', 'requires', 'profile', 'aliases', 'open_only'] as const).filter(
    (k) => decl[k] !== undefined,
  );
  if (decl.kind === 'object' && decl.not_found === undefined) fail('', "an object route needs 'not_found'");
  if (decl.kind === 'object' && listOnly.length > 0) fail(`/${listOnly[0]}`, `'${listOnly[0]}' is for list routes`);
  if (decl.kind === 'list' && objectOnly.length > 0)
    fail(`/${objectOnly[0]}`, `'${objectOnly[0]}' is for object routes`);

  const requires = decl.requires && requirement(decl.requires, inPath, tableOf, columnOf, fail);
  const openOnly = decl.open_only !== undefined ? columnOf(table, decl.open_only, '/open_only') : undefined;
  if (openOnly && openOnly.type.name !== 'bool') fail('/open_only', `column '${openOnly.name}' is not a bool`);

  if (decl.doc_params) {
    const docTable = tableOf(decl.doc_params.table, '/doc_params/table');
    for (const [name, column] of Object.entries(decl.doc_params.columns))
      columnOf(docTable, column, `/doc_params/columns/${name}`);
  }
  return {
    path: decl.path,
    plugin,
    scope: decl.scope,
    kind: decl.kind,
    table,
    summary: decl.summary ?? '',
    params,
    fields,
    notFound: decl.not_found ?? '',
    ...(decl.final_height !== undefined ? { finalHeight: columnOf(table, decl.final_height, '/final_height') } : {}),
    order: decl.order ?? 'asc',
    ...(requires ? { requires } : {}),
    ...(decl.doc_params || params.length > 0
      ? {
          docParams: decl.doc_params ?? {
            table: table.code,
            columns: Object.fromEntries(params.map((p) => [p.name, p.columns[0].name])),
          },
        }
      : {}),
    profile: decl.profile ?? 'explorer',
    ...(decl.record !== undefined ? { record: decl.record } : {}),
    filters: withFilterNames(table, filterNames(decl.aliases ?? {}, table, columnOf, fail)),
    ...(openOnly ? { openOnly } : {}),
    switches: decl.switches ?? [],
  };
}

/**
 * A list's required row: its table, path parameters naming its columns, fixed values parsed by their columns' types.
 */
function requirement(
  decl: NonNullable<RouteDecl['requires']>,
  inPath: readonly string[],
  tableOf: (code: string, at: string) => TableDef,
  columnOf: (table: TableDef, name: string, at: string) => ColumnDef,
  fail: (at: string, reason: string) => never,
): RouteRequirementDef {
  const table = tableOf(decl.table, '/requires/table');
  const params = Object.entries(decl.params).map(([name, column]) => {
    if (!inPath.includes(name)) fail(`/requires/params/${name}`, `'${name}' is not a path parameter`);
    return { name, column: columnOf(table, column, `/requires/params/${name}`) };
  });
  const where = Object.entries(decl.where ?? {}).map(([name, value]) => {
    const column = columnOf(table, name, `/requires/where/${name}`);
    try {
      return { column, value: column.type.parse(String(value)) };
    } catch (e) {
      return fail(`/requires/where/${name}`, (e as Error).message);
    }
  });
  return { table, params, where, notFound: decl.not_found };
}

/** A list's extra filter names: another name of one column, or any of several; never a column's own name. */
function filterNames(
  aliases: NonNullable<RouteDecl['aliases']>,
  table: TableDef,
  columnOf: (table: TableDef, name: string, at: string) => ColumnDef,
  fail: (at: string, reason: string) => never,
): FilterName[] {
  return Object.entries(aliases).map(([name, target]) => {
    if (table.column(name)) fail(`/aliases/${name}`, `table '${table.code}' already has a column '${name}'`);
    if (typeof target === 'string') {
      columnOf(table, target, `/aliases/${name}`);
      return { name, aliasOf: target };
    }
    target.forEach((c, i) => columnOf(table, c, `/aliases/${name}/${i}`));
    return { name, anyOf: target };
  });
}
