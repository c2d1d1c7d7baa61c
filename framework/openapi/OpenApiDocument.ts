import type { Catalog } from '../catalog/Catalog';
import type { SeriesDef, TableDef } from '../catalog/CatalogModel';
import type { RouteDoc, RouteInfo } from '../http/RouteDoc';
import type { ListProfile } from '../query/ListProfile';
import { COLLAPSE_CODES } from '../series/Collapse';
import { FILL_MODES, SERIES_PROFILE } from '../series/SeriesRequest';
import { columnSchema, errorSchema, filterSchema, limitSchema, rowSchema, Schema, seriesRowSchema } from './schemas';

export interface OpenApiSource {
  catalog: Catalog;
  routes: readonly RouteInfo[];
  plugins: ReadonlyArray<{ name: string; description?: string }>;
  version: string;
}

type Operation = Record<string, unknown>;
const ERROR_REF = { $ref: '#/components/responses/Error' };
/** The two ways a write route takes an API key (RouteDoc.apiKey): either one will do. */
const SECURITY_SCHEMES = {
  bearer: { type: 'http', scheme: 'bearer', description: 'an API key as `Authorization: Bearer <key>`' },
  apiKey: { type: 'apiKey', in: 'header', name: 'X-API-Key' },
};

/**
 * The OpenAPI 3.1 document of an instance, built once at start-up from the catalog of the enabled
 * plugins and the routes they mounted: `/tables/{code}` and `/series/{code}` are expanded per catalog
 * entry with their columns, types and filter operators; every other route with its path parameters,
 * documented query parameters, limits and response schema. Nothing here is written by hand per route.
 */
export function buildOpenApi(src: OpenApiSource): Record<string, unknown> {
  const paths: Record<string, Record<string, Operation>> = {};
  const schemas: Record<string, Schema> = { Error: errorSchema() };
  const ids = new Set<string>();
  const add = (path: string, op: Operation, method = 'get'): void => {
    let id = op.operationId as string;
    for (let n = 2; ids.has(id); n++) id = `${op.operationId}_${n}`;
    ids.add(id);
    const responses = { ...(op.responses as object), '4XX': ERROR_REF, '5XX': ERROR_REF };
    paths[path] = { ...paths[path], [method]: { ...op, operationId: id, responses } };
  };
  for (const r of src.routes) {
    if (r.kind === 'tables') {
      for (const t of src.catalog.tables.values())
        add(`${r.path.replace(/\/:\w+$/, '')}/${t.code}`, tableOperation(t, r.profile, schemas));
    } else if (r.kind === 'series') {
      for (const s of src.catalog.series.values())
        add(`${r.path.replace(/\/:\w+$/, '')}/${s.code}`, seriesOperation(s, schemas));
    } else {
      const { path, params } = openApiPath(r.path);
      add(path, routeOperation(r, params, src.catalog, schemas), r.kind === 'write' ? r.method : 'get');
    }
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'tzidx',
      version: src.version,
      description:
        'Tezos indexer data service: bulk tables, time-series, explorer and plugin APIs. Errors always answer the JSON error body.',
      'x-tzidx-plugins': src.plugins.map((p) => ({ name: p.name, description: p.description ?? '' })),
    },
    servers: [{ url: '/' }],
    tags: tags(src),
    paths,
    components: {
      schemas,
      securitySchemes: SECURITY_SCHEMES,
      responses: {
        Error: {
          description: 'the JSON error body',
          content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
        },
      },
    },
  };
}

/**
 * `/explorer/block/:id/operations{.:format}` → `/explorer/block/{id}/operations` and its parameters;
 * an optional format suffix is described on the operation instead (OpenAPI paths have no optional parts).
 */
export function openApiPath(routerPath: string): { path: string; params: string[]; formatSuffix: boolean } {
  const formatSuffix = routerPath.includes('{.:format}');
  const path = routerPath.replace(/\{\.:format\}/g, '');
  const params = [...path.matchAll(/:(\w+)/g)].map((m) => m[1]);
  return { path: path.replace(/:(\w+)/g, '{$1}'), params, formatSuffix };
}

function tableOperation(t: TableDef, profile: ListProfile, schemas: Record<string, Schema>): Operation {
  schemas[`${t.code}.row`] = rowSchema(t, profile);
  schemas[`${t.code}.columns`] = {
    type: 'object',
    description: 'every column with its type and filter operators',
    properties: Object.fromEntries(t.columns.map((c) => [c.name, columnSchema(c, 'object')])),
  };
  schemas[`${t.code}.filters`] = filterSchema(t);
  return {
    operationId: `table_${t.code}`,
    tags: [t.plugin],
    summary: `table ${t.code}`,
    description: `${t.description}\n\nColumns: see schema \`${t.code}.columns\`. Also as \`/tables/${t.code}.csv\`. Page with \`cursor\` (the last row_id) and \`limit\`.`,
    parameters: [...listParameters(t, profile), filtersParameter(t)],
    responses: jsonRows(`${t.code}.row`, true),
  };
}

function seriesOperation(s: SeriesDef, schemas: Record<string, Schema>): Operation {
  schemas[`${s.code}.series`] = seriesRowSchema(s);
  if (!schemas[`${s.table.code}.filters`]) schemas[`${s.table.code}.filters`] = filterSchema(s.table);
  return {
    operationId: `series_${s.code}`,
    tags: [s.plugin],
    summary: `series ${s.code}`,
    description: `${s.description}\n\nAggregates table \`${s.table.code}\` by \`${s.timeColumn.name}\`. Also as \`.csv\`. Without dates: the latest \`limit\` buckets.`,
    parameters: [
      query('columns', 'comma-separated measures', { type: 'string' }),
      query('collapse', 'bucket width', { type: 'string', enum: [...COLLAPSE_CODES], default: '1m' }),
      query('start_date', 'first bucket (RFC3339, unix seconds, or `now-1d` style)', { type: 'string' }),
      query('end_date', 'last bucket', { type: 'string' }),
      query('fill', 'how empty buckets are filled', { type: 'string', enum: [...FILL_MODES], default: 'none' }),
      query('limit', 'buckets', limitSchema(SERIES_PROFILE)),
      query('order', 'bucket order', { type: 'string', enum: ['asc', 'desc'], default: 'asc' }),
      filtersParameter(s.table),
    ],
    responses: jsonRows(`${s.code}.series`, true),
  };
}

function routeOperation(
  r: Exclude<RouteInfo, { kind: 'tables' | 'series' }>,
  names: string[],
  catalog: Catalog,
  schemas: Record<string, Schema>,
): Operation {
  const doc: RouteDoc = r.doc;
  const parameters: Schema[] = names.map((name) => pathParameter(name, doc, catalog));
  for (const q of doc.query ?? [])
    parameters.push(query(q.name, q.description ?? '', q.schema ?? { type: 'string' }, q.required));
  let responses: Operation;
  if (r.kind === 'collection') {
    schemas[`${r.table.code}.filters`] ??= filterSchema(r.table);
    const shape = r.profile.rowShape === 'object' ? `${r.table.code}.object` : `${r.table.code}.row`;
    schemas[shape] ??= rowSchema(r.table, r.profile);
    parameters.push(...listParameters(r.table, r.profile), filtersParameter(r.table));
    responses = jsonRows(shape, r.profile.allowCsv);
  } else if (r.kind === 'seriesAt') {
    schemas[`${r.series.code}.series`] ??= seriesRowSchema(r.series);
    responses = jsonRows(`${r.series.code}.series`, true);
  } else if (doc.status === 204) {
    responses = { '204': { description: 'done' } };
  } else {
    const media = doc.mediaType ?? 'application/json';
    const schema = doc.response ?? (media === 'application/json' ? { type: 'object' } : { type: 'string' });
    responses = { [String(doc.status ?? 200)]: { description: 'OK', content: { [media]: { schema } } } };
  }
  return {
    operationId: r.scope,
    tags: [r.path.split('/')[1] || 'service'],
    summary: doc.summary ?? r.scope,
    ...(doc.description ? { description: doc.description } : {}),
    ...(doc.params ? { 'x-tzidx-params-from': doc.params } : {}),
    parameters,
    ...(doc.requestBody ? { requestBody: jsonBody(doc.requestBody) } : {}),
    ...(doc.apiKey ? { security: [{ bearer: [] }, { apiKey: [] }] } : {}),
    responses,
  };
}

function pathParameter(name: string, doc: RouteDoc, catalog: Catalog): Schema {
  const columnName = doc.params?.columns[name];
  const column = columnName ? catalog.table(doc.params!.table)?.column(columnName) : undefined;
  const schema = column
    ? { ...column.type.schema('object'), 'x-type': column.type.name }
    : (doc.pathParams?.[name] ?? { type: 'string' });
  const description = column
    ? `a ${doc.params!.table}.${column.name} value${column.description ? ` (${column.description})` : ''}`
    : name;
  return { name, in: 'path', required: true, description, schema };
}

function listParameters(t: TableDef, profile: ListProfile): Schema[] {
  return [
    query('columns', `comma-separated columns of ${t.code}`, { type: 'string' }),
    query(
      'limit',
      `rows per page (default ${profile.defaultLimit}, at most ${profile.maxLimit})`,
      limitSchema(profile),
    ),
    query('cursor', 'continue after this row_id', { type: 'string', pattern: '^[0-9]+$' }),
    query('order', 'row order', { type: 'string', enum: ['asc', 'desc'], default: 'asc' }),
    ...(profile.allowOffset ? [query('offset', 'rows to skip', { type: 'integer', minimum: 0, default: 0 })] : []),
  ];
}

/** All column filters in one exploded object parameter: `?height.gte=10&type=transaction`. */
function filtersParameter(t: TableDef): Schema {
  return {
    name: 'filters',
    in: 'query',
    style: 'form',
    explode: true,
    description: 'column filters: `column` or `column.op`, e.g. {"height.gte": "10"}',
    schema: { $ref: `#/components/schemas/${t.code}.filters` },
    example: {},
  };
}

function jsonBody(schema: Schema): Schema {
  return { required: true, content: { 'application/json': { schema } } };
}

function query(name: string, description: string, schema: Schema, required = false): Schema {
  return { name, in: 'query', required, description, schema };
}

function jsonRows(ref: string, csv: boolean): Operation {
  return {
    '200': {
      description: 'rows',
      content: {
        'application/json': { schema: { type: 'array', items: { $ref: `#/components/schemas/${ref}` } } },
        ...(csv ? { 'text/csv': { schema: { type: 'string' } } } : {}),
      },
    },
  };
}

function tags(src: OpenApiSource): Schema[] {
  const routeTags = new Set(
    src.routes.filter((r) => r.kind !== 'tables' && r.kind !== 'series').map((r) => r.path.split('/')[1] || 'service'),
  );
  return [
    ...src.plugins.map((p) => ({
      name: p.name,
      description: `tables and series of ${p.name}${p.description ? `: ${p.description}` : ''}`,
    })),
    ...[...routeTags].filter((t) => !src.plugins.some((p) => p.name === t)).map((name) => ({ name })),
  ];
}
