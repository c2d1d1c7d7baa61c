import type { Context } from 'koa';
import {
  ApiError,
  EXPLORER_LIST_PROFILE,
  ExplorerArgs,
  explorerObject,
  metadataField,
  ObjectAnswer,
  parseTableRequest,
  RouteRegistry,
} from '../../../framework';
import type { BlockLookup } from '../../core-chain';
import { bigmapKeyHash } from './BigmapKeyParam';
import { bigmapObject, ItemOptions, typesOf, updateObject, valueObject } from './BigmapObjects';
import { BigmapReader } from './BigmapReader';

/**
 * `/explorer/bigmap/{id}`'s lists: live keys and values (or those after an earlier `block`), one value
 * by key hash or key, and the updates (of one key), paged like every explorer list. The bigmap itself
 * is a declared route (tables.yaml `bigmaps: routes:`) shaped by the `bigmap` record shaper here.
 */
export class BigmapRoutes {
  constructor(
    private readonly reader: BigmapReader,
    private readonly blocks: BlockLookup,
  ) {}

  register(r: RouteRegistry): void {
    r.shapers.key('bigmap_id', async (raw) => String(bigmapId(raw)));
    r.shapers.record('bigmap', async (rows, switches) =>
      rows.map((text) => {
        const bigmap = this.reader.bigmaps.explorerRow(text);
        return { ...bigmapObject(bigmap, switches.prim), ...metadataField(switches.meta, bigmap.contract) };
      }),
    );
    explorerObject(r, '/explorer/bigmap/:id/keys', 'ListBigmapKeys', (ctx) => this.values(ctx, false), {
      summary: 'the keys of a bigmap',
      params: { table: 'bigmaps', columns: { id: 'bigmap_id' } },
    });
    explorerObject(r, '/explorer/bigmap/:id/values', 'ListBigmapValues', (ctx) => this.values(ctx, true), {
      summary: 'the values of a bigmap',
      params: { table: 'bigmaps', columns: { id: 'bigmap_id' } },
    });
    explorerObject(r, '/explorer/bigmap/:id/updates', 'ListBigmapUpdates', (ctx) => this.updates(ctx, undefined), {
      summary: 'the updates of a bigmap',
      params: { table: 'bigmaps', columns: { id: 'bigmap_id' } },
    });
    // The spec's path, and tzindex's.
    explorerObject(
      r,
      '/explorer/bigmap/:id/updates/:key',
      'ListBigmapKeyUpdates',
      (ctx) => this.updates(ctx, ctx.params.key),
      {
        summary: 'the updates of a bigmap key',
        params: { table: 'bigmap_updates', columns: { id: 'bigmap_id', key: 'hash' } },
      },
    );
    explorerObject(
      r,
      '/explorer/bigmap/:id/:key/updates',
      'ListBigmapKeyUpdates',
      (ctx) => this.updates(ctx, ctx.params.key),
      {
        summary: 'the updates of a bigmap key',
        params: { table: 'bigmap_updates', columns: { id: 'bigmap_id', key: 'hash' } },
      },
    );
    explorerObject(
      r,
      '/explorer/bigmap/:id/:key',
      'ReadBigmapValue',
      async (ctx) => {
        const args = new ExplorerArgs(ctx.query, ['prim', 'meta', 'block']);
        const bigmap = await this.reader.bigmap(bigmapId(ctx.params.id));
        const hash = bigmapKeyHash(ctx.params.key, typesOf(bigmap).keyType);
        const height = await this.pastHeight(args.get('block'));
        const row = await this.reader.value(Number(bigmap.bigmap_id), hash, height);
        if (!row) throw ApiError.notFound('no such bigmap key');
        return { body: valueObject(bigmap, row, true, options(args)), ...(height !== undefined ? { height } : {}) };
      },
      { summary: 'a bigmap value', params: { table: 'bigmap_values', columns: { id: 'bigmap_id', key: 'hash' } } },
    );
  }

  private async values(ctx: Context, withValue: boolean): Promise<ObjectAnswer> {
    const args = new ExplorerArgs(ctx.query, ['prim', 'meta', 'block']);
    const bigmap = await this.reader.bigmap(bigmapId(ctx.params.id));
    const request = parseTableRequest(this.reader.values.table, args.rest, EXPLORER_LIST_PROFILE);
    const height = await this.pastHeight(args.get('block'));
    const rows = await this.reader.valuePage(Number(bigmap.bigmap_id), request, height);
    return {
      body: rows.map((row) => valueObject(bigmap, row, withValue, options(args))),
      ...(height !== undefined ? { height } : {}),
    };
  }

  private async updates(ctx: Context, key: string | undefined): Promise<ObjectAnswer> {
    const args = new ExplorerArgs(ctx.query, ['prim', 'meta', 'block', 'since']);
    const bigmap = await this.reader.bigmap(bigmapId(ctx.params.id));
    const hash = key === undefined ? undefined : bigmapKeyHash(key, typesOf(bigmap).keyType);
    const request = parseTableRequest(this.reader.updates.table, args.rest, EXPLORER_LIST_PROFILE);
    const since = args.get('since');
    const block = args.get('block');
    const bounds = {
      hash,
      since: since === undefined ? undefined : await this.blocks.heightParam('since', since),
      upTo: block === undefined ? undefined : await this.blocks.heightParam('block', block),
    };
    const rows = await this.reader.updatePage(Number(bigmap.bigmap_id), request, bounds);
    const o = options(args);
    const origins = o.meta ? await this.reader.origins(rows.map((row) => Number(row.op_id))) : new Map();
    return { body: rows.map((row) => updateObject(bigmap, row, origins.get(Number(row.op_id)), o)) };
  }

  /**
   * The height of a `block` parameter below the head (keys and values then come from the updates); undefined for none
   * or the head.
   */
  private async pastHeight(raw: string | undefined): Promise<number | undefined> {
    if (raw === undefined) return undefined;
    const height = await this.blocks.heightParam('block', raw);
    return height < (await this.blocks.headHeight()) ? height : undefined;
  }
}

function bigmapId(raw: string): number {
  if (!/^-?\d{1,15}$/.test(raw)) throw ApiError.malformedId(`invalid bigmap id '${raw}'`);
  return Number(raw);
}

function options(args: ExplorerArgs): ItemOptions {
  return { prim: args.flag('prim'), meta: args.flag('meta') };
}
