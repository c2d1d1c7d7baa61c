import type { Context } from 'koa';
import type { Knex } from 'knex';
import type { Catalog } from '../catalog/Catalog';
import type { ColumnDef, RouteDef, RouteParamDef } from '../catalog/CatalogModel';
import { ApiError } from '../errors/ApiError';
import type { ObjectAnswer } from '../http/ObjectResponder';
import type { QueryParamDoc } from '../http/RouteDoc';
import { checked } from '../http/ResourceIds';
import type { RouteRegistry } from '../http/RouteRegistry';
import type { KeyResolver, RecordShaper, RouteSwitches } from '../http/RouteShapers';
import { EXPLORER_LIST_PROFILE, OBJECT_LIST_PROFILE } from '../query/ListProfile';
import { columnSql } from '../query/ColumnSql';
import { parseTableRequest, type QueryArgs, type TableRequest } from '../query/TableRequest';
import { leadsIndex, lookUpKeys } from '../query/TableQueryEngine';
import { whereIndexedEquality, whereInMergedPages } from '../query/IndexedEquality';
import type { Database } from '../storage/Database';
import { CatalogRows, type ExplorerRow } from './CatalogRows';
import { ExplorerArgs } from './ExplorerArgs';
import { explorerObject } from './explorerObject';
import { FIELD_RENDERERS } from './FieldRenderers';
import { applyListRequest } from './ListPage';
import { listQueryDoc, WITH_CLOSED } from './ListQueryDoc';

const PROFILES = { explorer: EXPLORER_LIST_PROFILE, object: OBJECT_LIST_PROFILE } as const;

/** How a declared route turns its rows into answers: its fields, or a plugin's record shaper over whole rows. */
interface Shape {
  rows: CatalogRows;
  /**
   * One answer per row, with the height it is fixed at when the route names a `final_height` (not when that is null).
   */
  answers(q: Knex.QueryBuilder, switches: RouteSwitches): Promise<ObjectAnswer[]>;
}

/**
 * Mounts the routes declared in tables.yaml (`routes:` of each enabled plugin) on the generic
 * engine, so an object or list over one catalog table needs no route code: path parameters checked by
 * their columns' types (400/1301) or by a plugin's key resolver, `not_found` as 404/1305, lists paged
 * by their profile, records built by the plugin's record shaper when one is named. Runs after the
 * plugins mounted their routes, so every shaper is registered: an unknown name stops the start-up.
 */
export function mountDeclaredRoutes(r: RouteRegistry, catalog: Catalog, db: Database): void {
  for (const route of catalog.routes.values()) {
    const missing = [route.table, route.requires?.table].find((t) => t !== undefined && !catalog.table(t.code));
    if (missing)
      throw new Error(`route ${route.path}: table '${missing.code}' is not in the catalog of the enabled plugins`);
    const keys = new Map(
      route.params.filter((p) => p.resolve).map((p) => [p.name, r.shapers.requireKey(p.resolve!, route.path)]),
    );
    const shape = route.record
      ? recordShape(route, db, r.shapers.requireRecord(route.record, route.path))
      : fieldShape(route, db);
    const load = route.kind === 'object' ? objectLoader(route, shape, keys) : listLoader(route, db, shape, keys);
    // The object profile's parameters are documented as the DeFi lists always were; explorer lists as the hand-written
    // ones (not).
    const query: QueryParamDoc[] =
      route.kind === 'list' && route.profile === 'object'
        ? [...listQueryDoc(OBJECT_LIST_PROFILE), ...(route.openOnly ? [WITH_CLOSED] : [])]
        : [];
    r.mountedBy(route.plugin, () =>
      explorerObject(r, route.path, route.scope, load, {
        summary: route.summary,
        ...(query.length > 0 ? { query } : {}),
        ...(route.docParams ? { params: route.docParams } : {}),
      }),
    );
  }
}

function fieldShape(route: RouteDef, db: Database): Shape {
  const rows = new CatalogRows(db, route.table, columnsOf(route));
  const final = route.finalHeight?.name;
  return {
    rows,
    answers: async (q) =>
      (await rows.read(q)).map((row) => ({ body: fieldsOf(route, row), ...fixedAt(final && row[final]) })),
  };
}

function recordShape(route: RouteDef, db: Database, shaper: RecordShaper): Shape {
  const rows = new CatalogRows(db, route.table);
  const final = route.finalHeight?.name;
  return {
    rows,
    answers: async (q, switches) => {
      const texts = await rows.readText(q);
      return (await shaper(texts, switches)).map((body, i) => ({ body, ...fixedAt(final && texts[i][final]) }));
    },
  };
}

function objectLoader(
  route: RouteDef,
  shape: Shape,
  keys: ReadonlyMap<string, KeyResolver>,
): (ctx: Context) => Promise<ObjectAnswer> {
  return async (ctx) => {
    // Switches first, as the hand-written routes checked them: a malformed one is 400 whatever the path.
    // An object route without switches reads no query at all (as before switches existed).
    const switches =
      route.switches.length > 0 ? switchesOf(new ExplorerArgs(ctx.query as QueryArgs, route.switches), route) : {};
    const [answer] = await shape.answers(
      where(shape.rows.query(), route.params, await pathValues(ctx, route.params, keys)).limit(1),
      switches,
    );
    if (!answer) throw ApiError.notFound(route.notFound);
    return answer;
  };
}

function listLoader(
  route: RouteDef,
  db: Database,
  shape: Shape,
  keys: ReadonlyMap<string, KeyResolver>,
): (ctx: Context) => Promise<ObjectAnswer> {
  const required = route.requires && new CatalogRows(db, route.requires.table, ['row_id']);
  const profile = PROFILES[route.profile];
  // Fixed per route: the parameters' columns leading an index with the row id, and a parameter on
  // several such columns (a wallet's events as signer, sender or receiver), read as a page per column.
  const leading = new Set(route.params.flatMap((p) => p.columns).filter((c) => leadsIndex(route.table, c)));
  const split = route.params.find((p) => p.columns.length > 1 && p.columns.every((c) => leading.has(c)));
  const splitParams = split?.columns.map((column) =>
    route.params.map((p) => (p === split ? { ...p, columns: [column] } : p)),
  );
  return async (ctx) => {
    // Path parameters first: a malformed or unknown one is 400/404 whatever the query.
    const values = await pathValues(ctx, route.params, keys);
    if (route.requires && required) {
      const q = where(
        required.query(),
        route.requires.params.map((p) => ({ name: p.name, columns: [p.column] })),
        values,
      );
      for (const { column, value } of route.requires.where) q.whereRaw(`${columnSql(column)} = ?`, [value]);
      if (!(await required.first(q))) throw ApiError.notFound(route.requires.notFound);
    }
    const query = ctx.query as QueryArgs;
    const args = new ExplorerArgs(query, [...(route.openOnly ? [WITH_CLOSED.name] : []), ...route.switches]);
    const request = await lookUpKeys(db.reader, parseTableRequest(route.filters, args.rest, profile));
    if (profile.zeroLimitIsEmpty && request.limit === 0) return { body: [] };
    const order = query.order ? request.order : route.order;
    const open = route.openOnly && !args.flag(WITH_CLOSED.name) ? route.openOnly : undefined;
    const page = (q: Knex.QueryBuilder, params: readonly RouteParamDef[], window: TableRequest) => {
      for (const p of params) {
        // A value on a column leading an index with the row id (a pool's events): that index, in order.
        if (p.columns.length === 1 && leading.has(p.columns[0]))
          whereIndexedEquality(q, p.columns[0].name, values.get(p.name)!, order);
        else where(q, [p], values);
      }
      if (open) q.whereRaw(`${columnSql(open)} = false`);
      return applyListRequest(q, window, order);
    };
    let q: Knex.QueryBuilder;
    if (!splitParams) q = page(shape.rows.query(), route.params, request);
    else {
      // A page per column of the split parameter, merged.
      const window = { ...request, limit: request.limit + request.offset, offset: 0 };
      const pages = splitParams.map((params) =>
        page(db.reader.withSchema(route.table.schema).from(route.table.storage).select('row_id'), params, window),
      );
      q = whereInMergedPages(db.reader, shape.rows.query(), pages, order, request.limit, request.offset);
    }
    const answers = await shape.answers(q, switchesOf(args, route));
    return { body: answers.map((a) => a.body) };
  };
}

/** The route's declared switches as the request set them. */
function switchesOf(args: ExplorerArgs, route: RouteDef): RouteSwitches {
  return Object.fromEntries(route.switches.map((s) => [s, args.flag(s)]));
}

/**
 * The height an answer is fixed at: the final-height column's value, none when the route has none or it is null (not
 * final yet).
 */
function fixedAt(height: unknown): { height?: number } {
  return height === undefined || height === null ? {} : { height: Number(height) };
}

/** The path's parameters, each checked by its column's type (400/1301 `invalid <what> '<raw>'`) or its key resolver. */
async function pathValues(
  ctx: Context,
  params: readonly RouteParamDef[],
  keys: ReadonlyMap<string, KeyResolver>,
): Promise<Map<string, string>> {
  const values = new Map<string, string>();
  for (const p of params) {
    const resolve = keys.get(p.name);
    values.set(
      p.name,
      resolve ? await resolve(ctx.params[p.name]) : checked(p.columns[0].type, ctx.params[p.name], `invalid ${p.what}`),
    );
  }
  return values;
}

/** Each parameter's value in its column, or in any of its columns. */
function where(
  q: Knex.QueryBuilder,
  params: ReadonlyArray<{ name: string; columns: readonly ColumnDef[] }>,
  values: ReadonlyMap<string, string>,
): Knex.QueryBuilder {
  for (const p of params) {
    const value = values.get(p.name)!;
    if (p.columns.length === 1) q.whereRaw(`${columnSql(p.columns[0])} = ?`, [value]);
    else q.where((any) => p.columns.forEach((c) => any.orWhereRaw(`${columnSql(c)} = ?`, [value])));
  }
  return q;
}

/** The columns read: every field's, and the final-height column. */
function columnsOf(route: RouteDef): string[] {
  return [
    ...new Set([...route.fields.map((f) => f.column.name), ...(route.finalHeight ? [route.finalHeight.name] : [])]),
  ];
}

function fieldsOf(route: RouteDef, row: ExplorerRow): ExplorerRow {
  const out: ExplorerRow = {};
  for (const f of route.fields)
    out[f.name] = f.render ? FIELD_RENDERERS[f.render](row[f.column.name]) : row[f.column.name];
  return out;
}
