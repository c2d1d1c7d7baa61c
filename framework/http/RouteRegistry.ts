import Router from '@koa/router';
import { Context } from 'koa';
import { Catalog } from '../catalog/Catalog';
import { SeriesDef, TableDef } from '../catalog/CatalogModel';
import { ListProfile } from '../query/ListProfile';
import { Filter } from '../query/TableRequest';
import { ApiError } from '../errors/ApiError';
import { CollectionResponder, Format, splitFormat } from './CollectionResponder';
import { ObjectAnswer, ObjectResponder, stripJsonSuffix } from './ObjectResponder';
import { RouteDoc, RouteInfo, WriteMethod } from './RouteDoc';
import { RouteShapers } from './RouteShapers';

export type RouteHandler = (ctx: Context) => Promise<void> | void;

export interface CollectionOptions {
  /** Filters derived from the path (e.g. the pool address of /defi/dex/{address}/events); see pathFilter. */
  filters?: (ctx: Context, table: TableDef) => Filter[];
  /** Runs before the query, e.g. to answer 404 for ids in the path that name nothing. */
  before?: (ctx: Context) => Promise<void> | void;
  /** For the OpenAPI document. */
  doc?: RouteDoc;
}

/**
 * What serves catalog series (series/SeriesResponder implements it): the HTTP layer knows this
 * shape, not the series engine, so http does not import series.
 */
export interface SeriesEndpoint {
  /** Validates a series at start-up (throws with a clear message). */
  check(series: SeriesDef): void;
  respond(ctx: Context, series: SeriesDef, format: Format, filters?: readonly Filter[]): Promise<void>;
}

/**
 * How plugins (and the framework's own APIs) publish routes. `collection` mounts the generic query
 * engine on any path for any catalog table, so a plugin's list endpoints need no query code of their own.
 */
export class RouteRegistry {
  readonly router = new Router();
  private seriesResponder?: SeriesEndpoint;
  /** Every mounted route with what it says about itself: the source of /openapi.json. */
  readonly mounted: RouteInfo[] = [];
  /** Record shapers and key resolvers that declared routes name (tables.yaml `record:`, `resolve:`). */
  readonly shapers = new RouteShapers();

  constructor(
    private readonly catalog: Catalog,
    private readonly responder: CollectionResponder,
    private readonly objects: ObjectResponder,
  ) {}

  /** Every registered path template (`/explorer/block/:id`), for tools that walk the whole API. */
  paths(): string[] {
    return [...new Set(this.router.stack.map((layer) => String(layer.path)))];
  }

  get(path: string, scope: string, handler: RouteHandler, doc: RouteDoc = {}): void {
    this.mount({ kind: 'route', path, scope, doc }, handler);
  }

  /** A write route; its body, if any, is read with `jsonBody` (JsonBody.ts), which `doc.requestBody` documents. */
  write(method: WriteMethod, path: string, scope: string, handler: RouteHandler, doc: RouteDoc = {}): void {
    this.mount({ kind: 'write', method, path, scope, doc }, handler);
  }

  /** Mounts the routes `mount` mounts as `plugin`'s (RouteInfo.plugin: the docs group routes by it). */
  mountedBy(plugin: string, mount: () => void): void {
    const outer = this.owner;
    this.owner = plugin;
    try {
      mount();
    } finally {
      this.owner = outer;
    }
  }

  private owner?: string;

  private mount(info: RouteInfo, handler: RouteHandler): void {
    this.mounted.push(this.owner ? { ...info, plugin: this.owner } : info);
    const scope = info.scope;
    this.router[info.kind === 'write' ? info.method : 'get'](info.path, async (ctx) => {
      ctx.state.scope = scope;
      await handler(ctx);
    });
  }

  /**
   * An explorer object route: `load` returns the object (and the height it is fixed at, for caching)
   * or throws ApiError (400/1301 for malformed ids via ResourceIds, 404/1305 for unknown ones).
   */
  object(
    path: string,
    scope: string,
    load: (ctx: Context) => Promise<ObjectAnswer> | ObjectAnswer,
    doc: RouteDoc = {},
  ): void {
    this.get(
      path,
      scope,
      async (ctx) => {
        stripJsonSuffix(ctx.params);
        await this.objects.respond(ctx, await load(ctx));
      },
      doc,
    );
  }

  collection(
    path: string,
    scope: string,
    tableCode: string,
    profile: ListProfile,
    options: CollectionOptions = {},
  ): void {
    const table = this.catalog.table(tableCode);
    if (!table) throw new Error(`route ${path}: table '${tableCode}' is not in the catalog of the enabled plugins`);
    this.mount({ kind: 'collection', path, scope, doc: options.doc ?? {}, table, profile }, async (ctx) => {
      const format = ctx.params.format ? splitFormat(`x.${ctx.params.format}`).format : 'json';
      await options.before?.(ctx);
      await this.responder.respond(ctx, table, profile, format, options.filters?.(ctx, table) ?? []);
    });
  }

  /** `/tables/{code}[.{format}]` for every catalog table: 404 for codes of disabled plugins. */
  tables(prefix: string, profile: ListProfile): void {
    this.mount({ kind: 'tables', path: `${prefix}/:table`, scope: 'StreamTable', doc: {}, profile }, async (ctx) => {
      const { name, format } = splitFormat(ctx.params.table);
      const table = this.catalog.table(name);
      if (!table) throw ApiError.notFound(`no such table '${name}'`);
      await this.responder.respond(ctx, table, profile, format);
    });
  }

  /**
   * `/series/{code}[.{format}]` for every catalog series (404 for unknown codes). Compiles every
   * series first, so a series over a non-numeric column stops the start-up with a clear message.
   */
  series(prefix: string, responder: SeriesEndpoint): void {
    for (const s of this.catalog.series.values()) responder.check(s);
    this.seriesResponder = responder;
    this.mount({ kind: 'series', path: `${prefix}/:series`, scope: 'StreamSeries', doc: {} }, async (ctx) => {
      const { name, format } = splitFormat(ctx.params.series);
      const series = this.catalog.series.get(name);
      if (!series) throw ApiError.notFound(`no such series '${name}'`);
      await responder.respond(ctx, series, format);
    });
  }

  /**
   * One catalog series at a plugin's own path, e.g. `/series/:exchange/:market/ohlcv{.:format}` with
   * path filters on the exchange and market columns; served by the same engine as `/series/{code}`.
   */
  seriesAt(path: string, scope: string, seriesCode: string, options: CollectionOptions = {}): void {
    const series = this.catalog.series.get(seriesCode);
    if (!series) throw new Error(`route ${path}: series '${seriesCode}' is not in the catalog of the enabled plugins`);
    const responder = this.seriesResponder;
    if (!responder) throw new Error(`route ${path}: series routes need RouteRegistry.series() to be registered first`);
    responder.check(series);
    this.mount({ kind: 'seriesAt', path, scope, doc: options.doc ?? {}, series }, async (ctx) => {
      const format = ctx.params.format ? splitFormat(`x.${ctx.params.format}`).format : 'json';
      await options.before?.(ctx);
      await responder.respond(ctx, series, format, options.filters?.(ctx, series.table) ?? []);
    });
  }
}
