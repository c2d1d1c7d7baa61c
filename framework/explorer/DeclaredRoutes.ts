import type { Context } from 'koa';
import type { Knex } from 'knex';
import type { Catalog } from '../catalog/Catalog';
import { type ColumnDef, type RouteDef, type RouteParamDef, storedName } from '../catalog/CatalogModel';
import { ApiError } from '../errors/ApiError';
import type { ObjectAnswer } from '../http/ObjectResponder';
import { checked } from '../http/ResourceIds';
import type { RouteRegistry } from '../http/RouteRegistry';
import { EXPLORER_LIST_PROFILE } from '../query/ListProfile';
import { parseTableRequest, type QueryArgs } from '../query/TableRequest';
import type { Database } from '../storage/Database';
import { CatalogRows, type ExplorerRow } from './CatalogRows';
import { ExplorerArgs } from './ExplorerArgs';
import { explorerObject } from './explorerObject';
import { FIELD_RENDERERS } from './FieldRenderers';
import { applyListRequest } from './ListPage';

/**
 * Mounts the routes declared in tables.yaml (`routes:` of each enabled plugin) on the generic
 * engine, so an object or list over one catalog table needs no route code: path parameters checked by
 * their columns' types (400/1301), `not_found` as 404/1305, lists paged like every explorer list.
 */
export function mountDeclaredRoutes(r: RouteRegistry, catalog: Catalog, db: Database): void {
  for (const route of catalog.routes.values()) {
    const missing = [route.table, route.requires?.table].find((t) => t !== undefined && !catalog.table(t.code));
    if (missing) throw new Error(`route ${route.path}: table '${missing.code}' is not in the catalog of the enabled plugins`);
    const load = route.kind === 'object' ? objectLoader(route, db) : listLoader(route, db);
    explorerObject(r, route.path, route.scope, load, { summary: route.summary, ...(route.docParams ? { params: route.docParams } : {}) });
  }
}

function objectLoader(route: RouteDef, db: Database): (ctx: Context) => Promise<ObjectAnswer> {
  const rows = new CatalogRows(db, route.table, columnsOf(route));
  return async (ctx) => {
    const q = where(rows.query(), route.params, pathValues(ctx, route.params));
    const row = await rows.first(q);
    if (!row) throw ApiError.notFound(route.notFound);
    const body = fieldsOf(route, row);
    return route.finalHeight ? { body, height: row[route.finalHeight.name] as number } : { body };
  };
}

function listLoader(route: RouteDef, db: Database): (ctx: Context) => Promise<ObjectAnswer> {
  const rows = new CatalogRows(db, route.table, columnsOf(route));
  const required = route.requires && new CatalogRows(db, route.requires.table, ['row_id']);
  return async (ctx) => {
    const values = pathValues(ctx, route.params);
    if (route.requires && required) {
      const q = where(required.query(), route.requires.params, values);
      for (const { column, value } of route.requires.where) q.where(storedName(column), value);
      if (!(await required.first(q))) throw ApiError.notFound(route.requires.notFound);
    }
    const query = ctx.query as QueryArgs;
    const request = parseTableRequest(rows.table, new ExplorerArgs(query, []).rest, EXPLORER_LIST_PROFILE);
    const q = where(rows.query(), route.params, values);
    const page = await rows.read(applyListRequest(q, request, query.order ? request.order : route.order));
    return { body: page.map((row) => fieldsOf(route, row)) };
  };
}

/** The path's parameters, each checked by its column's type (400/1301 `invalid <what> '<raw>'`). */
function pathValues(ctx: Context, params: readonly RouteParamDef[]): Map<string, string> {
  return new Map(params.map((p) => [p.name, checked(p.column.type, ctx.params[p.name], `invalid ${p.what}`)]));
}

function where(q: Knex.QueryBuilder, params: ReadonlyArray<{ name: string; column: ColumnDef }>, values: ReadonlyMap<string, string>): Knex.QueryBuilder {
  for (const p of params) q.where(storedName(p.column), values.get(p.name)!);
  return q;
}

/** The columns read: every field's, and the final-height column. */
function columnsOf(route: RouteDef): string[] {
  return [...new Set([...route.fields.map((f) => f.column.name), ...(route.finalHeight ? [route.finalHeight.name] : [])])];
}

function fieldsOf(route: RouteDef, row: ExplorerRow): ExplorerRow {
  const out: ExplorerRow = {};
  for (const f of route.fields) out[f.name] = f.render ? FIELD_RENDERERS[f.render](row[f.column.name]) : row[f.column.name];
  return out;
}
