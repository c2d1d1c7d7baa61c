import { EXPLORER_SWITCHES } from './CatalogModel';
import { COLUMN_TYPE_PATTERN } from './types/ColumnTypes';

const IDENT = '^[a-z][a-z0-9_]{0,62}$';

const column = {
  type: 'object',
  required: ['name', 'type'],
  additionalProperties: false,
  properties: {
    name: { type: 'string', pattern: IDENT },
    type: { type: 'string', pattern: COLUMN_TYPE_PATTERN },
    nullable: { type: 'boolean' },
    description: { type: 'string' },
    default: { type: 'boolean' },
    alias_of: { type: 'string', pattern: IDENT },
    any_of: { type: 'array', minItems: 2, items: { type: 'string', pattern: IDENT } },
    hidden_values: { type: 'array', minItems: 1, items: { type: 'string' } },
    sparse: { type: 'boolean' },
    lookup: {
      type: 'object',
      required: ['table', 'column', 'on'],
      additionalProperties: false,
      properties: {
        table: { type: 'string', pattern: IDENT },
        column: { type: 'string', pattern: IDENT },
        on: { type: 'array', minItems: 1, items: { type: 'string', pattern: IDENT } },
        by: { type: 'array', minItems: 1, items: { type: 'string', pattern: IDENT } },
      },
    },
    maps_to: {
      type: 'object',
      required: ['column', 'by'],
      additionalProperties: false,
      properties: { column: { type: 'string', pattern: IDENT }, by: { type: 'string', pattern: IDENT } },
    },
    filter_via: {
      type: 'object',
      required: ['column', 'table', 'key'],
      additionalProperties: false,
      properties: {
        column: { type: 'string', pattern: IDENT },
        table: { type: 'string', pattern: IDENT },
        key: { type: 'string', pattern: IDENT },
        value: { type: 'string', pattern: IDENT },
        by_value: { type: 'boolean' },
        stored: { type: 'boolean' },
      },
    },
    follows_height: {
      type: 'object',
      required: ['table', 'column'],
      additionalProperties: false,
      properties: { table: { type: 'string', pattern: IDENT }, column: { type: 'string', pattern: IDENT } },
    },
    packs: {
      type: 'object',
      required: ['high', 'low', 'bits'],
      additionalProperties: false,
      properties: {
        high: { type: 'string', pattern: IDENT },
        low: { type: 'string', pattern: IDENT },
        bits: { type: 'integer', minimum: 1, maximum: 32 },
        stored: { type: 'boolean' },
      },
    },
  },
};

const indexList = {
  type: 'array',
  items: {
    oneOf: [
      { type: 'array', minItems: 1, items: { type: 'string', pattern: IDENT } },
      {
        type: 'object',
        required: ['columns'],
        additionalProperties: false,
        properties: {
          columns: { type: 'array', minItems: 1, items: { type: 'string', pattern: IDENT } },
          unique: { type: 'boolean' },
          using: { enum: ['btree', 'hash', 'brin'] },
          except: { type: 'array', minItems: 1, uniqueItems: true, items: { type: 'string' } },
        },
      },
    ],
  },
};

const parts = {
  type: 'object',
  required: ['by', 'tables', 'columns'],
  additionalProperties: false,
  properties: {
    by: { type: 'string', pattern: IDENT },
    tables: { type: 'object', minProperties: 1, additionalProperties: { type: 'string', pattern: IDENT } },
    columns: { type: 'array', minItems: 1, uniqueItems: true, items: { type: 'string', pattern: IDENT } },
    fixed: {
      type: 'object',
      additionalProperties: { anyOf: [{ type: 'string' }, { type: 'number' }, { type: 'boolean' }] },
    },
    types: { type: 'object', additionalProperties: { type: 'string' } },
    indexes: indexList,
  },
};

const table = {
  type: 'object',
  required: ['columns'],
  additionalProperties: false,
  properties: {
    description: { type: 'string' },
    storage: { type: 'string', pattern: IDENT },
    kind: { enum: ['append', 'mutable'] },
    height_column: { type: 'string', pattern: IDENT },
    orphan_column: { type: 'string', pattern: IDENT },
    settles_after: { type: 'integer', minimum: 0 },
    derived_from: { type: 'array', minItems: 1, uniqueItems: true, items: { type: 'string', pattern: IDENT } },
    columns: { type: 'array', minItems: 1, items: column },
    indexes: indexList,
    parts,
    partition: {
      type: 'object',
      required: ['by', 'span'],
      additionalProperties: false,
      properties: { by: { type: 'string', pattern: IDENT }, span: { type: 'integer', minimum: 1 } },
    },
  },
};

const series = {
  type: 'object',
  required: ['table', 'columns'],
  additionalProperties: false,
  properties: {
    description: { type: 'string' },
    table: { type: 'string', pattern: IDENT },
    time_column: { type: 'string', pattern: IDENT },
    partition: { type: 'array', items: { type: 'string', pattern: IDENT }, uniqueItems: true },
    where: {
      type: 'object',
      propertyNames: { pattern: '^[a-z][a-z0-9_]{0,62}(\\.(eq|ne|gt|gte|lt|lte))?$' },
      additionalProperties: { anyOf: [{ type: 'string' }, { type: 'number' }, { type: 'boolean' }] },
    },
    columns: {
      type: 'array',
      minItems: 1,
      items: {
        type: 'object',
        required: ['name', 'agg'],
        additionalProperties: false,
        properties: {
          name: { type: 'string', pattern: IDENT },
          agg: { enum: ['sum', 'count', 'first', 'last', 'min', 'max', 'mean', 'wmean'] },
          source: { type: 'string', pattern: IDENT },
          weight: { type: 'string', pattern: IDENT },
        },
      },
    },
  },
};

const columnMap = {
  type: 'object',
  propertyNames: { pattern: IDENT },
  additionalProperties: { type: 'string', pattern: IDENT },
};

const route = {
  type: 'object',
  required: ['path', 'scope', 'kind', 'table'],
  additionalProperties: false,
  properties: {
    path: { type: 'string', pattern: '^(/[A-Za-z0-9_.-]+|/:[a-z][a-z0-9_]*)+$' },
    scope: { type: 'string', pattern: '^[A-Z][A-Za-z0-9]*$' },
    kind: { enum: ['object', 'list'] },
    table: { type: 'string', pattern: IDENT },
    summary: { type: 'string' },
    params: {
      type: 'object',
      propertyNames: { pattern: IDENT },
      additionalProperties: {
        type: 'object',
        required: ['column'],
        additionalProperties: false,
        properties: {
          column: {
            oneOf: [
              { type: 'string', pattern: IDENT },
              { type: 'array', minItems: 1, items: { type: 'string', pattern: IDENT } },
            ],
          },
          what: { type: 'string', minLength: 1 },
          resolve: { type: 'string', pattern: IDENT },
        },
      },
    },
    fields: {
      type: 'array',
      minItems: 1,
      items: {
        oneOf: [
          { type: 'string', pattern: IDENT },
          {
            type: 'object',
            required: ['name'],
            additionalProperties: false,
            properties: {
              name: { type: 'string', pattern: IDENT },
              column: { type: 'string', pattern: IDENT },
              render: { enum: ['micheline', 'csv_list'] },
            },
          },
        ],
      },
    },
    not_found: { type: 'string', minLength: 1 },
    final_height: { type: 'string', pattern: IDENT },
    order: { enum: ['asc', 'desc'] },
    requires: {
      type: 'object',
      required: ['table', 'params', 'not_found'],
      additionalProperties: false,
      properties: {
        table: { type: 'string', pattern: IDENT },
        params: columnMap,
        where: {
          type: 'object',
          propertyNames: { pattern: IDENT },
          additionalProperties: { oneOf: [{ type: 'string' }, { type: 'number' }, { type: 'boolean' }] },
        },
        not_found: { type: 'string', minLength: 1 },
      },
    },
    doc_params: {
      type: 'object',
      required: ['table', 'columns'],
      additionalProperties: false,
      properties: { table: { type: 'string', pattern: IDENT }, columns: columnMap },
    },
    profile: { enum: ['explorer', 'object'] },
    record: { type: 'string', pattern: IDENT },
    aliases: {
      type: 'object',
      propertyNames: { pattern: IDENT },
      additionalProperties: {
        oneOf: [
          { type: 'string', pattern: IDENT },
          { type: 'array', minItems: 2, items: { type: 'string', pattern: IDENT } },
        ],
      },
    },
    open_only: { type: 'string', pattern: IDENT },
    switches: { type: 'array', uniqueItems: true, items: { enum: EXPLORER_SWITCHES } },
  },
};

/** JSON Schema of tables.yaml (and of decorator-produced declarations, which take the same shape). */
export const CATALOG_SCHEMA = {
  $id: 'https://tzidx.dev/schemas/tables.json',
  type: 'object',
  required: ['version', 'plugins'],
  additionalProperties: false,
  properties: {
    version: { const: 1 },
    plugins: {
      type: 'object',
      propertyNames: { pattern: '^[a-z][a-z0-9-]{0,40}$' },
      additionalProperties: {
        type: 'object',
        additionalProperties: false,
        properties: {
          tables: { type: 'object', propertyNames: { pattern: IDENT }, additionalProperties: table },
          series: {
            type: 'object',
            // Series codes may name exchange/market paths later; keep them path-safe.
            propertyNames: { pattern: '^[a-z][a-z0-9_]{0,62}$' },
            additionalProperties: series,
          },
          routes: { type: 'array', items: route },
        },
      },
    },
  },
} as const;
