import { Encoding } from './ColumnType';
import { FixedType } from './FixedType';

/**
 * Exact decimals shown as JSON numbers (market prices and volumes): stored as numeric like `fixed(n)`,
 * but clients that decode into floats (the TzPro SDK's candles and tickers) need a number, not a string.
 * The number is the stored decimal text rounded to n places, never a double's rendering.
 */
export class DecimalType extends FixedType {
  override readonly name: string;
  /** A JSON number; with no decimals, an integer beyond 2^53 reads as its exact bigint (`objectValue`). */
  override readonly readTsType: string;

  constructor(decimals: number) {
    super(decimals);
    this.name = `decimal(${decimals})`;
    this.readTsType = decimals === 0 ? 'number | bigint' : 'number';
  }

  override json(raw: string, _enc: Encoding): string {
    return raw;
  }
  override schema(): Record<string, unknown> {
    return { type: 'number', description: `decimal with ${this.decimals} decimals` };
  }
}
