import { BaseColumnType, BinaryFields, ValueError } from './ColumnType';

/** Structured values (Micheline, parameters), embedded as JSON; compared by value. */
export class JsonType extends BaseColumnType {
  readonly name = 'json';
  override readonly tsType = 'unknown';
  override readonly readTsType = 'unknown';
  readonly sqlType = 'jsonb';
  override readonly operators = ['eq', 'ne'] as const;
  override readonly placeholder = '?::jsonb';

  override json(raw: string): string {
    return raw;
  }
  parse(arg: string): string {
    try {
      return JSON.stringify(JSON.parse(arg));
    } catch {
      throw new ValueError(`'${arg}' is not valid JSON`);
    }
  }
  override toDb(value: unknown): unknown {
    return value === null || value === undefined
      ? value
      : JSON.stringify(value, (_k, v) => (typeof v === 'bigint' ? v.toString() : v));
  }
  override writeBinary(value: unknown, out: BinaryFields): void {
    out.jsonb(this.toDb(value) as string);
  }
  override fromDb(value: unknown): unknown {
    // PGlite and pg both parse jsonb; a string here is a JSON document stored as text.
    return typeof value === 'string' ? JSON.parse(value) : value;
  }
  override schema(): Record<string, unknown> {
    return {};
  }
}
