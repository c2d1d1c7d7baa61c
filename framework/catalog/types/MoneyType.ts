import {
  BaseColumnType,
  BinaryFields,
  Encoding,
  INT64_MAX,
  INT64_MIN,
  ValueError,
  integerFromDb,
  integerToDb,
} from './ColumnType';

/** Amounts are integer mutez in storage and code; the API speaks tez with exactly 6 decimals. */
export class MoneyType extends BaseColumnType {
  readonly name = 'money';
  override readonly tsType = 'bigint';
  /** Reads show tez numbers (`objectValue`). */
  override readonly readTsType = 'number';
  readonly sqlType = 'bigint';

  override json(raw: string, _enc: Encoding): string {
    return mutezToTez(raw);
  }
  override csv(raw: string): string {
    return mutezToTez(raw);
  }
  parse(arg: string): string {
    return tezToMutez(arg).toString();
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
  override schema(): Record<string, unknown> {
    return { type: 'number', description: 'tez with 6 decimals' };
  }
}

export function mutezToTez(mutez: string | bigint): string {
  const text = mutez.toString();
  const negative = text.startsWith('-');
  const digits = (negative ? text.slice(1) : text).padStart(7, '0');
  return `${negative ? '-' : ''}${digits.slice(0, -6)}.${digits.slice(-6)}`;
}

export function tezToMutez(tez: string): bigint {
  const m = /^(-?)(\d+)(?:\.(\d*))?$/.exec(tez.trim());
  if (!m) throw new ValueError(`'${tez}' is not a tez amount`);
  const fraction = m[3] ?? '';
  if (fraction.length > 6) throw new ValueError(`'${tez}' has more than 6 decimals`);
  const mutez = BigInt(m[2]) * 1_000_000n + BigInt(fraction.padEnd(6, '0') || '0');
  const signed = m[1] === '-' ? -mutez : mutez;
  if (signed < INT64_MIN || signed > INT64_MAX) throw new ValueError(`'${tez}' is out of range`);
  return signed;
}
