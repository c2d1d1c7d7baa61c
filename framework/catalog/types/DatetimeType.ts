import { parseTime, TimeParseError } from '../../time/TimeExpression';
import { BaseColumnType, BinaryFields, Encoding, ValueError } from './ColumnType';

/** Postgres counts times from 2000-01-01 UTC. */
const POSTGRES_EPOCH_MS = Date.UTC(2000, 0, 1);

/** Stored as timestamptz; unix milliseconds in compact JSON, RFC3339 (UTC, seconds) in CSV and objects. */
export class DatetimeType extends BaseColumnType {
  readonly name = 'datetime';
  override readonly tsType = 'Date | number | string';
  readonly sqlType = 'timestamptz';
  /** Compact rows carry times as unix milliseconds, and the TzPro SDK's table decoder cannot parse null: 0. */
  override readonly compactNull = '0';

  override select(ref: string, enc: Encoding): string {
    return enc === 'compact'
      ? `floor(extract(epoch from ${ref}) * 1000)::bigint::text`
      : `to_char(${ref} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"')`;
  }
  override json(raw: string, enc: Encoding): string {
    return enc === 'compact' ? raw : JSON.stringify(raw);
  }
  override objectValue(raw: string): unknown {
    return raw;
  }
  parse(arg: string): Date {
    try {
      return parseTime(arg);
    } catch (e) {
      if (e instanceof TimeParseError) throw new ValueError(e.message);
      throw e;
    }
  }
  override toDb(value: unknown): unknown {
    return typeof value === 'number' ? new Date(value) : value;
  }
  /** timestamptz is microseconds since 2000-01-01 UTC. */
  override writeBinary(value: unknown, out: BinaryFields): void {
    const ms = value instanceof Date ? value.getTime() : typeof value === 'number' ? value : Date.parse(String(value));
    if (!Number.isFinite(ms)) throw new RangeError(`'${String(value)}' is not a time`);
    out.int64(Math.round((ms - POSTGRES_EPOCH_MS) * 1000));
  }
  override schema(enc: Encoding): Record<string, unknown> {
    return enc === 'compact'
      ? { type: 'integer', description: 'unix milliseconds' }
      : { type: 'string', format: 'date-time' };
  }
}
