import { INT64_MAX, parseInteger } from './ColumnType';
import { Int64Type } from './Int64Type';

const UINT64_MAX = 2n ** 64n - 1n;

/**
 * Non-negative ids and counters; stored as bigint, so stored values stay within 0…2^63-1. Filter
 * arguments take the whole uint64 range (clients send 2^64-1 as "no upper bound"): a value above
 * every storable one is clamped to 2^63-1, which compares the same against any stored value.
 */
export class UInt64Type extends Int64Type {
  override readonly name = 'uint64';
  protected override readonly min = 0n;

  override parse(arg: string): string {
    const v = parseInteger(arg, 0n, UINT64_MAX, 'a uint64 integer');
    return BigInt(v) > INT64_MAX ? INT64_MAX.toString() : v;
  }
}
