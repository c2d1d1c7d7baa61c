import { BaseColumnType, BinaryFields, integerFromDb, integerToDb, parseInteger } from './ColumnType';

const UINT64_MAX = 2n ** 64n - 1n;

/**
 * Non-negative integers stored narrower than 8 bytes: `uint32` below 2^31 in an `integer`, `uint16` below
 * 2^15 in a `smallint` (positions and consensus power in the narrow tables of a table stored in parts,
 * TablePartsDecl.types; a value out of range keeps its row in the main table). Writers' and readers' values
 * are uint64's (bigint in, bigint out); filter arguments take the uint64 range, a value above every
 * storable one clamped to the largest, which compares the same against any stored value.
 */
export class NarrowUIntType extends BaseColumnType {
  readonly name: string;
  readonly sqlType: string;
  override readonly tsType = 'bigint | number';
  override readonly readTsType = 'number';
  private readonly max: bigint;
  /** One buffer for every value: `bytes` copies it at once. */
  private readonly word: Buffer;

  constructor(private readonly bytes: 2 | 4) {
    super();
    this.name = `uint${bytes * 8}`;
    this.sqlType = bytes === 2 ? 'smallint' : 'integer';
    this.max = 2n ** BigInt(bytes * 8 - 1) - 1n;
    this.word = Buffer.alloc(bytes);
  }

  override json(raw: string): string {
    return raw;
  }
  override objectValue(raw: string): unknown {
    return Number(raw);
  }
  parse(arg: string): string {
    const v = parseInteger(arg, 0n, UINT64_MAX, `a ${this.name} integer`);
    return BigInt(v) > this.max ? this.max.toString() : v;
  }
  override toDb(value: unknown): unknown {
    return integerToDb(value);
  }
  override holds(value: unknown): boolean {
    const integer =
      typeof value === 'bigint' ||
      (typeof value === 'number' && Number.isInteger(value)) ||
      (typeof value === 'string' && /^-?\d+$/.test(value));
    if (!integer) return false;
    const v = BigInt(value);
    return v >= 0n && v <= this.max;
  }
  override holdsSql(ref: string): string {
    return `${ref} between 0 and ${this.max}`;
  }
  override writeBinary(value: unknown, out: BinaryFields): void {
    // An integer's binary COPY form is its bytes, big-endian.
    if (!this.holds(value)) throw new RangeError(`${String(value)} is out of a ${this.name} column's range`);
    const v = Number(value);
    if (this.bytes === 2) this.word.writeInt16BE(v);
    else this.word.writeInt32BE(v);
    out.bytes(this.word);
  }
  override fromDb(value: unknown): unknown {
    return integerFromDb(value);
  }
  override schema(): Record<string, unknown> {
    return { type: 'integer', format: this.bytes === 2 ? 'int16' : 'int32', minimum: 0 };
  }
}
