import type { ColumnDef, SeriesDef, TableDef } from '../catalog/CatalogModel';
import type { Encoding } from '../catalog/types/ColumnType';
import { ErrorCode } from '../errors/ApiError';
import type { ListProfile } from '../query/ListProfile';
import { compileSeries } from '../series/CompiledSeries';

/**
 * JSON Schemas of the document's components, each derived from what the code already declares: a
 * column's schema and operators come from its type, a table's rows from its columns, limits from
 * the list profile, the error body from ApiError's codes.
 */
export type Schema = Record<string, unknown>;

/** A column value as an encoding renders it; `null` allowed for nullable columns (JSON Schema 2020-12). */
export function columnSchema(c: ColumnDef, enc: Encoding): Schema {
  const base = c.type.schema(enc);
  const described = {
    ...base,
    description: [c.description, base.description].filter(Boolean).join(' — ') || undefined,
  };
  const typed = c.nullable && typeof base.type === 'string' ? { ...described, type: [base.type, 'null'] } : described;
  return { ...dropUndefined(typed), 'x-type': c.type.name, 'x-operators': [...c.type.operators] };
}

/** A table's rows: arrays in column order (`columns=` picks others), or objects for object lists. */
export function rowSchema(table: TableDef, profile: ListProfile): Schema {
  if (profile.rowShape === 'object') {
    return {
      type: 'object',
      properties: Object.fromEntries(table.columns.map((c) => [c.name, columnSchema(c, 'object')])),
    };
  }
  const defaults = table.columns.filter((c) => c.inDefault);
  return {
    type: 'array',
    description: `values in the order of \`columns\`; by default ${defaults.map((c) => c.name).join(', ')}`,
    prefixItems: defaults.map((c) => columnSchema(c, 'compact')),
  };
}

/** `[[time, m1, m2…], …]`: the bucket start in unix ms, then each measure. */
export function seriesRowSchema(series: SeriesDef): Schema {
  const measures = compileSeries(series).measures;
  return {
    type: 'array',
    description: `time (unix ms), then the measures in the order of \`columns\`; by default ${measures.map((m) => m.name).join(', ')}`,
    prefixItems: [
      { type: 'integer', description: 'bucket start, unix milliseconds' },
      ...measures.map((m) => ({ ...columnSchema(m.output, 'compact'), title: m.name, 'x-aggregation': m.agg })),
    ],
  };
}

/** The service's error body and every code it uses. */
export function errorSchema(): Schema {
  return {
    type: 'object',
    required: ['errors'],
    properties: {
      errors: {
        type: 'array',
        items: {
          type: 'object',
          required: ['code', 'status', 'message', 'scope', 'detail'],
          properties: {
            code: {
              type: 'integer',
              enum: Object.values(ErrorCode),
              description: Object.entries(ErrorCode)
                .map(([name, code]) => `${code} ${name}`)
                .join(', '),
            },
            status: { type: 'integer', description: 'the HTTP status' },
            message: { type: 'string', description: 'the status text' },
            scope: { type: 'string', description: 'the route that answered' },
            detail: { type: 'string', description: 'what was wrong' },
            request_id: { type: 'string', description: 'also in the X-Request-Id header' },
          },
        },
      },
    },
  };
}

/** `limit` as the list profile bounds it. */
export function limitSchema(profile: ListProfile): Schema {
  return { type: 'integer', minimum: 0, maximum: profile.maxLimit, default: profile.defaultLimit };
}

/** Every `column` / `column.op` filter a table accepts, by each column's type. */
export function filterSchema(table: TableDef): Schema {
  const properties: Record<string, Schema> = {};
  for (const c of table.columns) {
    const value = { type: 'string', description: `${c.type.name} value` };
    properties[c.name] = { ...value, description: `${c.name} equals (${c.type.name})` };
    for (const op of c.type.operators) {
      const list =
        op === 'in' || op === 'nin' ? ', comma-separated list' : op === 'rg' ? ', two comma-separated bounds' : '';
      properties[`${c.name}.${op}`] = { ...value, description: `${c.name} ${op} (${c.type.name}${list})` };
    }
  }
  return { type: 'object', additionalProperties: false, properties };
}

function dropUndefined(o: Schema): Schema {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined));
}
