import type { Context } from 'koa';
import { ApiError, jsonBody, parseAddress, RouteDoc, RouteRegistry, WriteMethod, isRecord } from '../../framework';
import { ChainMetadata } from './ChainMetadata';
import { ADDRESS, contentOf, Entry, EntryId, ListQuery, MetadataEntries, parseEntry } from './MetadataEntries';
import { SchemaRegistry } from './SchemaRegistry';
import { WriteAccess } from './WriteAccess';

/** `GET /metadata` filters: query parameter → namespace field (as the original). */
const LIST_FILTERS: Record<string, { ns: string; field: string }> = {
  kind: { ns: 'alias', field: 'kind' },
  status: { ns: 'baker', field: 'status' },
  country: { ns: 'location', field: 'country' },
  standard: { ns: 'asset', field: 'standard' },
};
const LIST_PARAMS = new Set(['limit', 'offset', 'cursor', 'order', 'short', ...Object.keys(LIST_FILTERS)]);
/** An entry as a write body (for /openapi.json): each further key is a namespace, checked by its schema. */
const ENTRY_BODY = {
  type: 'object',
  properties: { address: { type: 'string', pattern: ADDRESS.source }, asset_id: { type: 'integer', minimum: 0 } },
  additionalProperties: { type: 'object', description: 'a namespace, as its schema says (/metadata/schemas/{schema})' },
};

/** The metadata API: reads for everyone, writes for private instances with an API key. */
export class MetadataRoutes {
  constructor(
    private readonly entries: MetadataEntries,
    private readonly chain: ChainMetadata,
    private readonly schemas: SchemaRegistry,
    private readonly access: WriteAccess,
    private readonly maxBodyBytes: number,
  ) {}

  register(r: RouteRegistry): void {
    const entryPath = { params: { table: 'metadata', columns: { ident: 'entry_key' } } };
    const tokenPath = { params: { table: 'token', columns: { hash: 'contract', id: 'token_id' } } };
    r.get(
      '/metadata',
      'ListMetadata',
      async (ctx) => {
        ctx.body = await this.entries.list(listQuery(ctx.query));
      },
      { summary: 'the API metadata entries' },
    );
    r.get(
      '/metadata/schemas',
      'ListSchemas',
      (ctx) => {
        ctx.body = this.schemas.names();
      },
      { summary: 'the names of the metadata schemas' },
    );
    r.get(
      '/metadata/schemas/:schema',
      'GetSchema',
      (ctx) => {
        const name = ctx.params.schema.replace(/\.json$/, '');
        const doc = this.schemas.document(name);
        if (!doc) throw ApiError.notFound('schema not found');
        ctx.body = doc;
      },
      {
        summary: 'a metadata schema (JSON Schema)',
        pathParams: { schema: { type: 'string', enum: this.schemas.names() } },
      },
    );
    r.get(
      '/metadata/:ident',
      'GetMetadata',
      async (ctx) => {
        ctx.body = await this.read(parseIdent(ctx.params.ident));
      },
      { summary: 'metadata of an account or contract (or `address_tokenid`)', ...entryPath },
    );
    r.get(
      '/metadata/:hash/:id',
      'GetMetadata',
      async (ctx) => {
        ctx.body = await this.read(parseIdent(ctx.params.hash, ctx.params.id));
      },
      { summary: 'metadata of a token', ...tokenPath },
    );

    type Handler = (ctx: Context) => Promise<void>;
    const write = (method: WriteMethod, path: string, scope: string, handler: Handler, doc: RouteDoc): void => {
      r.write(
        method,
        path,
        scope,
        async (ctx) => {
          this.access.check(ctx);
          await handler(ctx);
        },
        { ...doc, apiKey: true },
      );
    };
    write(
      'post',
      '/metadata',
      'CreateMetadata',
      async (ctx) => {
        const body = await jsonBody(ctx, this.maxBodyBytes);
        if (!Array.isArray(body)) throw ApiError.invalid('metadata: the body must be a JSON array of entries');
        const entries = body.map((e, i) => this.validEntry(e, `/${i}`));
        ctx.status = 201;
        ctx.body = await this.entries.upsert(entries);
      },
      {
        summary: 'create entries, or merge their namespaces into existing ones',
        status: 201,
        requestBody: { type: 'array', items: { ...ENTRY_BODY, required: ['address'] } },
      },
    );
    const put = async (ctx: Context, id: EntryId): Promise<void> => {
      const entry = this.validEntry(
        {
          address: id.address,
          ...(id.assetId !== undefined ? { asset_id: id.assetId } : {}),
          ...bodyObject(await jsonBody(ctx, this.maxBodyBytes), id),
        },
        '',
      );
      ctx.body = await this.entries.replace(entry);
    };
    const replaced = { summary: 'replace an entry', requestBody: ENTRY_BODY };
    const entryId = (ctx: Context): EntryId => parseIdent(ctx.params.ident);
    const tokenId = (ctx: Context): EntryId => parseIdent(ctx.params.hash, ctx.params.id);
    write('put', '/metadata/:ident', 'UpdateMetadata', (c) => put(c, entryId(c)), { ...replaced, ...entryPath });
    write('put', '/metadata/:hash/:id', 'UpdateMetadata', (c) => put(c, tokenId(c)), { ...replaced, ...tokenPath });
    // By the exact text first: entries stored before writes checked address checksums can be deleted.
    const remove = async (ctx: Context, id: EntryId): Promise<void> => {
      if (!(await this.entries.remove(id))) {
        parseAddress(id.address); // nothing under that text: a malformed address is 400, a valid one 404
        throw ApiError.notFound('no such metadata entry');
      }
      ctx.status = 204;
    };
    const removed = { summary: 'remove an entry', status: 204 };
    write('delete', '/metadata/:ident', 'RemoveMetadata', (c) => remove(c, splitIdent(c.params.ident)), {
      ...removed,
      ...entryPath,
    });
    write('delete', '/metadata/:hash/:id', 'RemoveMetadata', (c) => remove(c, splitIdent(c.params.hash, c.params.id)), {
      ...removed,
      ...tokenPath,
    });
    write(
      'delete',
      '/metadata',
      'PurgeMetadata',
      async (ctx) => {
        await this.entries.purge();
        ctx.status = 204;
      },
      { summary: 'remove every entry', status: 204 },
    );
  }

  /** The API entry merged over what the chain says (tz16 for contracts, tz21 for tokens). */
  private async read(id: EntryId): Promise<Entry> {
    const stored = await this.entries.get(id);
    const chain =
      id.assetId !== undefined
        ? await this.chain.tz21(id.address, BigInt(id.assetId)).then((tz21) => (tz21 ? { tz21 } : undefined))
        : await this.chain.tz16(id.address).then((tz16) => (tz16 ? { tz16 } : undefined));
    if (!stored && !chain) throw ApiError.notFound('no such metadata entry');
    return {
      address: id.address,
      ...(id.assetId !== undefined ? { asset_id: id.assetId } : {}),
      ...(chain ?? {}),
      ...(stored ? contentOf(stored) : {}),
    };
  }

  private validEntry(value: unknown, at: string): Entry {
    const entry = parseEntry(value, at);
    this.schemas.validate(entry, at);
    return entry;
  }
}

/** `tz1…`, `KT1…_5` (the SDK's token form), or address and id as two segments. */
export function parseIdent(hash: string, id?: string): EntryId {
  const ident = splitIdent(hash, id);
  return { ...ident, address: parseAddress(ident.address) };
}

/** The address (unchecked) and token id an ident names. */
function splitIdent(hash: string, id?: string): EntryId {
  let address = hash.replace(/\.json$/, '');
  let assetId = id;
  const m = /^(.+)_(\d+)$/.exec(address);
  if (assetId === undefined && m) [address, assetId] = [m[1], m[2]];
  if (assetId === undefined) return { address };
  if (!/^\d{1,15}$/.test(assetId)) throw ApiError.malformedId(`invalid token id '${assetId}'`);
  return { address, assetId: Number(assetId) };
}

/** A PUT body: one entry; an address or asset_id in it must name the same entry as the path. */
function bodyObject(body: unknown, id: EntryId): Record<string, unknown> {
  if (!isRecord(body)) throw ApiError.invalid('metadata: the body must be a JSON object');
  const b = body;
  if (b.address !== undefined && b.address !== id.address)
    throw ApiError.invalid(`metadata: /address '${String(b.address)}' differs from the path`);
  if (b.asset_id !== undefined && b.asset_id !== id.assetId)
    throw ApiError.invalid(`metadata: /asset_id differs from the path`);
  return b;
}

function listQuery(query: Record<string, string | string[] | undefined>): ListQuery {
  for (const k of Object.keys(query)) if (!LIST_PARAMS.has(k)) throw ApiError.badQuery(`unknown parameter '${k}'`);
  const one = (k: string): string | undefined => {
    const v = query[k];
    if (Array.isArray(v)) throw ApiError.badQuery(`parameter '${k}' given more than once`);
    return v;
  };
  const int = (k: string, def: number, max: number): number => {
    const v = one(k);
    if (v === undefined) return def;
    if (!/^\d{1,9}$/.test(v)) throw ApiError.badQuery(`invalid ${k} '${v}'`);
    return Math.min(Number(v), max);
  };
  const order = one('order') ?? 'asc';
  if (order !== 'asc' && order !== 'desc') throw ApiError.badQuery(`invalid order '${order}'`);
  const cursor = one('cursor');
  if (cursor !== undefined && !/^\d{1,19}$/.test(cursor)) throw ApiError.badQuery(`invalid cursor '${cursor}'`);
  const short = one('short');
  return {
    limit: int('limit', 500, 50_000),
    offset: int('offset', 0, 1e9),
    cursor: cursor === undefined ? undefined : BigInt(cursor),
    order,
    short: short === '1' || short === 'true',
    filters: Object.entries(LIST_FILTERS).flatMap(([param, f]) => {
      const v = one(param);
      return v === undefined ? [] : [{ ...f, value: v }];
    }),
  };
}
