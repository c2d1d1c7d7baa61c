import {
  BaseColumnType,
  BinaryFields,
  Encoding,
  INT64_MAX,
  INT64_MIN,
  integerFromDb,
  integerToDb,
  parseInteger,
} from './ColumnType';

export class Int64Type extends BaseColumnType {
  readonly name: string = 'int64';
  override readonly tsType = 'bigint | number';
  /** A number while it is safe, else the exact bigint (`objectValue`). */
  override readonly readTsType = 'number | bigint';
  readonly sqlType = 'bigint';
  protected readonly min: bigint = INT64_MIN;

  override json(raw: string): string {
    return raw;
  }
  override objectValue(raw: string): unknown {
    const n = Number(raw);
    return Number.isSafeInteger(n) ? n : BigInt(raw);
  }
  parse(arg: string): string {
    return parseInteger(arg, this.min, INT64_MAX, `a ${this.name} integer`);
  }
  override toDb(value: unknown): unknown {
    return integerToDb(value);
  }
  override writeBinary(value: unknown, out: BinaryFields): void {
    out.int64(value as bigint | number | string);
  }
  override fromDb(value: unknown): unknown {
    return integerFromDb(value);
  }
  override schema(_enc: Encoding): Record<string, unknown> {
    return { type: 'integer', format: 'int64', ...(this.min === 0n ? { minimum: 0 } : {}) };
  }
}
