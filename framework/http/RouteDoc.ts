import type { SeriesDef, TableDef } from '../catalog/CatalogModel';
import type { ListProfile } from '../query/ListProfile';

/**
 * What a route says about itself so the OpenAPI document is generated from the routes that are
 * actually mounted, never kept in sync by hand. Every field is optional: a route without a doc is
 * still documented (its path parameters, the JSON error body), only less precisely.
 */
export interface RouteDoc {
  summary?: string;
  description?: string;
  /** Query parameters the route reads itself (list parameters and column filters are added for collections). */
  query?: readonly QueryParamDoc[];
  /** JSON Schema of a successful answer; default: any JSON object. */
  response?: Record<string, unknown>;
  /** Media type of a successful answer when it is not JSON (e.g. `text/html`). */
  mediaType?: string;
  /**
   * Where valid path parameters come from: one row of a catalog table, whose columns give the values
   * (e.g. `{ table: 'bigmap_values', columns: { id: 'bigmap_id', key: 'key_hash' } }`). It types the
   * parameters by the columns' types and lets clients and tests find a value that exists.
   */
  params?: { table: string; columns: Readonly<Record<string, string>> };
  /** JSON Schemas of path parameters that are no catalog column (a fixed list of names…). */
  pathParams?: Readonly<Record<string, Record<string, unknown>>>;
  /** Write routes: JSON Schema of the JSON body the route reads (framework/http/JsonBody); none: no body. */
  requestBody?: Record<string, unknown>;
  /** Write routes: the status of a success (default 200; 204 has no body). */
  status?: number;
  /** Write routes: one of the instance's API keys is wanted (`Authorization: Bearer` or `X-API-Key`). */
  apiKey?: boolean;
}

export interface QueryParamDoc {
  name: string;
  description?: string;
  schema?: Record<string, unknown>;
  required?: boolean;
}

export type WriteMethod = 'post' | 'put' | 'patch' | 'delete';

/**
 * One mounted route as the OpenAPI generator and the docs' route tables (`npm run gen`) see it: GET
 * unless it is a write; `plugin` is the plugin that mounted it (none: the framework's own routes).
 */
export type RouteInfo = { plugin?: string } & (
  | { kind: 'route'; path: string; scope: string; doc: RouteDoc }
  /** A POST, PUT, PATCH or DELETE route. */
  | { kind: 'write'; method: WriteMethod; path: string; scope: string; doc: RouteDoc }
  /** A list of catalog rows with a list profile (limits, shape) and filters on the table's columns. */
  | { kind: 'collection'; path: string; scope: string; doc: RouteDoc; table: TableDef; profile: ListProfile }
  /** `/tables/{code}` for every catalog table. */
  | { kind: 'tables'; path: string; scope: string; doc: RouteDoc; profile: ListProfile }
  /** `/series/{code}` for every catalog series. */
  | { kind: 'series'; path: string; scope: string; doc: RouteDoc }
  /** One catalog series at its own path. */
  | { kind: 'seriesAt'; path: string; scope: string; doc: RouteDoc; series: SeriesDef }
);
