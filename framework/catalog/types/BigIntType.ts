import { BaseColumnType, BinaryFields, integerFromDb, integerToDb, ValueError } from './ColumnType';

/** Unbounded integers (token amounts), a decimal string at the edge so no precision is lost. */
export class BigIntType extends BaseColumnType {
  readonly name = 'bigint';
  override readonly tsType = 'bigint | number';
  readonly sqlType = 'numeric(78,0)';

  parse(arg: string): string {
    if (!/^-?\d{1,78}$/.test(arg)) throw new ValueError(`'${arg}' is not an integer`);
    return BigInt(arg).toString();
  }
  override toDb(value: unknown): unknown {
    return integerToDb(value);
  }
  override writeBinary(value: unknown, out: BinaryFields): void {
    out.numeric(String(value));
  }
  override fromDb(value: unknown): unknown {
    return integerFromDb(value);
  }
  override schema(): Record<string, unknown> {
    return { type: 'string', pattern: '^-?[0-9]+$' };
  }
}
