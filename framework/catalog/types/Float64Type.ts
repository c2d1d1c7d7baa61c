import { BaseColumnType, BinaryFields, ValueError } from './ColumnType';

export class Float64Type extends BaseColumnType {
  readonly name = 'float64';
  override readonly tsType = 'number';
  /** NaN and ±Infinity read as null (`json`). */
  override readonly readTsType = 'number | null';
  readonly sqlType = 'double precision';

  override json(raw: string): string {
    // NaN and ±Infinity have no JSON form.
    return Number.isFinite(Number(raw)) ? raw : 'null';
  }
  parse(arg: string): number {
    const n = Number(arg);
    if (arg.trim() === '' || !Number.isFinite(n)) throw new ValueError(`'${arg}' is not a number`);
    return n;
  }
  override writeBinary(value: unknown, out: BinaryFields): void {
    out.float64(Number(value));
  }
  override fromDb(value: unknown): unknown {
    return value === null || value === undefined ? value : Number(value);
  }
  override schema(): Record<string, unknown> {
    return { type: 'number', format: 'double' };
  }
}
