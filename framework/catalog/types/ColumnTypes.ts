import { AddressType } from './AddressType';
import { BigIntType } from './BigIntType';
import { BinaryHashType } from './BinaryHashType';
import { BoolType } from './BoolType';
import { BytesType } from './BytesType';
import { ColumnType } from './ColumnType';
import { DatetimeType } from './DatetimeType';
import { DecimalType } from './DecimalType';
import { EnumType } from './EnumType';
import { FixedType } from './FixedType';
import { Float64Type } from './Float64Type';
import { HashType } from './HashType';
import { Int64Type } from './Int64Type';
import { JsonType } from './JsonType';
import { MoneyType } from './MoneyType';
import { NarrowUIntType } from './NarrowUIntType';
import { StringType } from './StringType';
import { UInt64Type } from './UInt64Type';

const SIMPLE: Record<string, () => ColumnType> = {
  int64: () => new Int64Type(),
  uint64: () => new UInt64Type(),
  uint32: () => new NarrowUIntType(4),
  uint16: () => new NarrowUIntType(2),
  float64: () => new Float64Type(),
  money: () => new MoneyType(),
  datetime: () => new DatetimeType(),
  bool: () => new BoolType(),
  hash: () => new HashType(),
  address: () => new AddressType(),
  string: () => new StringType(),
  bytes: () => new BytesType(),
  bigint: () => new BigIntType(),
  json: () => new JsonType(),
};

const PARAMETERIZED: Record<string, (arg: string) => ColumnType> = {
  enum: (arg) => new EnumType(arg.split(',').map((v) => v.trim())),
  fixed: (arg) => new FixedType(Number(arg)),
  decimal: (arg) => new DecimalType(Number(arg)),
  // Operation hashes grow with the chain: stored as raw bytes (BinaryHashType); the other kinds as base58 text.
  hash: (arg) => (arg.trim() === 'operation' ? new BinaryHashType() : new HashType(arg.trim())),
};

/** Names accepted in a catalog `type:`; the catalog JSON Schema is built from these too. */
export const COLUMN_TYPE_PATTERN = `^(${Object.keys(SIMPLE).join('|')})$|^(${Object.keys(PARAMETERIZED).join('|')})\\(.+\\)$`;

/** Turns a catalog declaration (`money`, `enum(a,b)`, `fixed(18)`, `hash(block)`) into its type. */
export function columnType(declaration: string): ColumnType {
  const simple = SIMPLE[declaration];
  if (simple) return simple();
  const m = /^([a-z0-9]+)\((.+)\)$/.exec(declaration);
  const make = m ? PARAMETERIZED[m[1]] : undefined;
  if (!m || !make) throw new Error(`unknown column type '${declaration}'`);
  return make(m[2]);
}
