import { BaseColumnType, BinaryFields, integerFromDb, integerToDb, ValueError } from './ColumnType';

/** The digits `numeric(78,0)` holds: 2^256 has 78. */
const DIGITS = 78;

/** Whether a `bigint` column holds the value: chain integers (nat, int) are unbounded, the column is not. */
export function fitsBigIntColumn(value: bigint): boolean {
  return (value < 0n ? -value : value).toString().length <= DIGITS;
}

/** Unbounded integers (token amounts), a decimal string at the edge so no precision is lost. */
export class BigIntType extends BaseColumnType {
  readonly name = 'bigint';
  override readonly tsType = 'bigint | number';
  readonly sqlType = `numeric(${DIGITS},0)`;

  parse(arg: string): string {
    if (!new RegExp(`^-?\\d{1,${DIGITS}}$`).test(arg)) throw new ValueError(`'${arg}' is not an integer`);
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
