import { escapeLiteral } from 'pg';

/**
 * A column type is the one place that knows how values of that type are stored, filtered, encoded and
 * documented. Everything else (DDL, filter parsing, JSON/CSV/object encoding, OpenAPI) asks the type.
 */
export type Encoding = 'compact' | 'csv' | 'object';
export type Operator = 'eq' | 'ne' | 'gt' | 'gte' | 'lt' | 'lte' | 'in' | 'nin' | 'rg' | 're';

export const ALL_OPERATORS: readonly Operator[] = ['eq', 'ne', 'gt', 'gte', 'lt', 'lte', 'in', 'nin', 'rg', 're'];
export const ORDERED_OPERATORS: readonly Operator[] = ['eq', 'ne', 'gt', 'gte', 'lt', 'lte', 'in', 'nin', 'rg'];
export const EQUALITY_OPERATORS: readonly Operator[] = ['eq', 'ne', 'in', 'nin'];

/** What a parsed filter argument becomes: a bound query parameter. */
export type SqlValue = string | number | boolean | Date | Buffer | null;

/**
 * Where a type writes one non-null value in Postgres's binary COPY format, in the encoding of its
 * `sqlType` (storage/BinaryCopy implements it for the indexer's bulk writes).
 */
export interface BinaryFields {
  int16(value: number): void;
  int64(value: bigint | number | string): void;
  float64(value: number): void;
  bool(value: boolean): void;
  text(value: string): void;
  bytes(value: Uint8Array): void;
  jsonb(json: string): void;
  numeric(decimal: string): void;
}

/** A filter argument that does not parse as the column's type; the message says why. */
export class ValueError extends Error {}

export interface ColumnType {
  /** The declaration as written in the catalog, e.g. `fixed(18)`. */
  readonly name: string;
  readonly sqlType: string;
  /** Collation of text storage: "C" makes comparisons byte-wise over UTF-8, as the API promises. */
  readonly collation?: string;
  readonly operators: readonly Operator[];
  /** SQL placeholder for one filter parameter (a cast where the driver cannot infer the type). */
  readonly placeholder: string;
  /** What a null renders as in compact JSON rows (`null` unless the type's clients cannot read null). */
  readonly compactNull: string;
  /** SQL expression that renders the column as text for an encoding; `ref` is an already quoted identifier. */
  select(ref: string, enc: Encoding): string;
  /** JSON text for the (non-null) text produced by `select`. */
  json(raw: string, enc: Encoding): string;
  /**
   * The JS value explorer objects hold for the text of `select(ref, 'object')`: what `json(raw, 'object')`
   * parses to (money as a tez number), integers beyond 2^53 as bigint (sent as exact numbers).
   */
  objectValue(raw: string): unknown;
  /** CSV cell content (before RFC 4180 quoting) for the text produced by `select(ref, 'csv')`. */
  csv(raw: string): string;
  /** Parses one filter argument into a query parameter. */
  parse(arg: string): SqlValue;
  /** One argument as a typed SQL literal (`parse`d, e.g. an enum label's code), for SQL that takes no parameters. */
  literal(arg: string): string;
  /** Converts a writer's JS value (bigint, Date, object…) into what the driver stores. */
  toDb(value: unknown): unknown;
  /** Writes a writer's non-null JS value (what `toDb` takes) for a binary COPY. */
  writeBinary(value: unknown, out: BinaryFields): void;
  /** Converts what the driver returns into the JS value writers use (bigint for integers, hex for bytes…). */
  fromDb(value: unknown): unknown;
  /**
   * The SQL expression (`ALTER COLUMN … TYPE … USING`) that turns column `ref` stored as `previous` (an SQL
   * type as `format_type` spells it) by an earlier schema into this type's storage; undefined: no such
   * conversion (the migration stops and says so).
   */
  convertFrom(ref: string, previous: string): string | undefined;
  /**
   * The expression the column's indexes are built on when it is not the column itself (an op hash's
   * first 8 bytes as a bigint): every equality on the column names it too (query/ValueLists).
   */
  indexKey?(ref: string): string;
  /**
   * Whether what handlers write and read (an enum's label, an op hash's base58) is not what is stored
   * (its code, its raw bytes): `ctx.read` converts their filters' values and the rows it returns.
   */
  readonly converts: boolean;
  /**
   * Whether a writer's value can be stored (a narrower integer's range, an enum's labels): a table stored in
   * parts keeps a row whose value a narrow table's type cannot hold in its main table (TablePartsDecl.types).
   */
  holds(value: unknown): boolean;
  /** `holds` in SQL, for a non-null value `ref` stored in a wider type; undefined: every value. */
  holdsSql(ref: string): string | undefined;
  /** The stored value `ref` as the writer gave it (an enum's label), for a view that reads it as a wider type. */
  valueSql(ref: string): string;
  /** JSON Schema of one encoded value, for OpenAPI. */
  schema(enc: Encoding): Record<string, unknown>;
  /** The TypeScript type of what writers pass (generated row types use it). */
  readonly tsType: string;
  /** The TypeScript type of what `objectValue` returns: a value of a row read through CatalogRows. */
  readonly readTsType: string;
}

/** Defaults shared by the text-like types: stored text, rendered as a JSON string. */
export abstract class BaseColumnType implements ColumnType {
  abstract readonly name: string;
  abstract readonly sqlType: string;
  readonly collation?: string;
  readonly operators: readonly Operator[] = ORDERED_OPERATORS;
  readonly placeholder: string = '?';
  readonly compactNull: string = 'null';
  readonly converts: boolean = false;
  readonly tsType: string = 'string';
  readonly readTsType: string = 'string';

  select(ref: string, _enc: Encoding): string {
    return `${ref}::text`;
  }
  json(raw: string, _enc: Encoding): string {
    return JSON.stringify(raw);
  }
  objectValue(raw: string): unknown {
    // A type that writes its text as a JSON string holds the text itself: no stringify and parse per value.
    if (this.json === BaseColumnType.prototype.json) return raw;
    return parsedObjectValue(this.json(raw, 'object'), raw);
  }
  csv(raw: string): string {
    return raw;
  }
  abstract parse(arg: string): SqlValue;
  literal(arg: string): string {
    const v = this.parse(arg);
    const text = Buffer.isBuffer(v) ? `\\x${v.toString('hex')}` : v instanceof Date ? v.toISOString() : String(v);
    return v === null ? 'null' : `${escapeLiteral(text)}::${this.sqlType}`;
  }
  toDb(value: unknown): unknown {
    return value;
  }
  writeBinary(value: unknown, out: BinaryFields): void {
    out.text(String(this.toDb(value)));
  }
  fromDb(value: unknown): unknown {
    return value;
  }
  convertFrom(_ref: string, _previous: string): string | undefined {
    return undefined;
  }
  holds(_value: unknown): boolean {
    return true;
  }
  holdsSql(_ref: string): string | undefined {
    return undefined;
  }
  valueSql(ref: string): string {
    return ref;
  }
  schema(_enc: Encoding): Record<string, unknown> {
    return { type: 'string' };
  }
}

/** `json` parsed; an integer beyond 2^53 becomes the exact bigint of its text. */
export function parsedObjectValue(json: string, raw: string): unknown {
  const value: unknown = JSON.parse(json);
  if (typeof value === 'number' && Number.isInteger(value) && !Number.isSafeInteger(value) && /^-?\d+$/.test(raw))
    return BigInt(raw);
  return value;
}

/** Integers travel as decimal strings so that no int64 ever passes through a JS double. */
export function parseInteger(arg: string, min: bigint, max: bigint, what: string): string {
  if (!/^-?\d+$/.test(arg)) throw new ValueError(`'${arg}' is not ${what}`);
  const n = BigInt(arg);
  if (n < min || n > max) throw new ValueError(`'${arg}' is out of range for ${what}`);
  return n.toString();
}

export const INT64_MIN = -(2n ** 63n);
export const INT64_MAX = 2n ** 63n - 1n;

/** The driver hands int8/numeric back as strings; writers work with bigint. */
export function integerFromDb(value: unknown): unknown {
  return value === null || value === undefined ? value : BigInt(value as string | number);
}

/** bigint and number become decimal strings; anything else passes through to the driver. */
export function integerToDb(value: unknown): unknown {
  return typeof value === 'bigint' || typeof value === 'number' ? value.toString() : value;
}
