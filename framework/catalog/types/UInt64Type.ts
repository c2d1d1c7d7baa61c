import { Int64Type } from './Int64Type';

/** Non-negative ids and counters; stored as bigint, so the usable range is 0…2^63-1. */
export class UInt64Type extends Int64Type {
  override readonly name = 'uint64';
  protected override readonly min = 0n;
}
