import { BaseColumnType, BinaryFields, integerFromDb, integerToDb, parseInteger } from './ColumnType';

const INT32_MAX = 2n ** 31n - 1n;
const UINT64_MAX = 2n ** 64n - 1n;

/**
 * Non-negative integers below 2^31 stored in 4 bytes (`integer`): positions in a block (op_n, op_p) in
 * the narrow tables of a table stored in parts (TablePartsDecl.types). Writers' and readers' values are
 * uint64's (bigint in, bigint out); filter arguments take the uint64 range, a value above every
 * storable one clamped to 2^31-1, which compares the same against any stored value.
 */
export class UInt32Type extends BaseColumnType {
  readonly name = 'uint32';
  readonly sqlType = 'integer';
  override readonly tsType = 'bigint | number';
  override readonly readTsType = 'number';
  /** One buffer for every value: `bytes` copies it at once. */
  private readonly word = Buffer.alloc(4);

  override json(raw: string): string {
    return raw;
  }
  override objectValue(raw: string): unknown {
    return Number(raw);
  }
  parse(arg: string): string {
    const v = parseInteger(arg, 0n, UINT64_MAX, 'a uint32 integer');
    return BigInt(v) > INT32_MAX ? INT32_MAX.toString() : v;
  }
  override toDb(value: unknown): unknown {
    return integerToDb(value);
  }
  override writeBinary(value: unknown, out: BinaryFields): void {
    // An integer's binary COPY form is its 4 bytes, big-endian.
    const v = BigInt(value as bigint | number | string);
    if (v < 0n || v > INT32_MAX) throw new RangeError(`${v} is out of a uint32 column's range`);
    this.word.writeInt32BE(Number(v));
    out.bytes(this.word);
  }
  override fromDb(value: unknown): unknown {
    return integerFromDb(value);
  }
  override schema(): Record<string, unknown> {
    return { type: 'integer', format: 'int32', minimum: 0 };
  }
}
