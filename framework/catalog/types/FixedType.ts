import { BaseColumnType, BinaryFields, ValueError } from './ColumnType';

/** Decimal numbers with a fixed number of decimals (USD values, prices), a string at the edge. */
export class FixedType extends BaseColumnType {
  readonly name: string;
  override readonly tsType = 'string | number';
  readonly sqlType = 'numeric';

  constructor(readonly decimals: number) {
    super();
    if (!Number.isInteger(decimals) || decimals < 0 || decimals > 36)
      throw new Error(`fixed decimals must be 0..36, got ${decimals}`);
    this.name = `fixed(${decimals})`;
  }

  override select(ref: string): string {
    return `round(${ref}, ${this.decimals})::text`;
  }
  parse(arg: string): string {
    if (!/^-?\d+(\.\d+)?$/.test(arg)) throw new ValueError(`'${arg}' is not a decimal number`);
    return arg;
  }
  override writeBinary(value: unknown, out: BinaryFields): void {
    out.numeric(String(value));
  }
  override fromDb(value: unknown): unknown {
    return value === null || value === undefined ? value : String(value);
  }
  override schema(): Record<string, unknown> {
    return { type: 'string', description: `decimal with ${this.decimals} decimals` };
  }
}
