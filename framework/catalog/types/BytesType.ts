import { BaseColumnType, ValueError } from './ColumnType';

/** Binary data, lowercase hex at the edge. */
export class BytesType extends BaseColumnType {
  readonly name = 'bytes';
  readonly sqlType = 'bytea';

  override select(ref: string): string {
    return `encode(${ref}, 'hex')`;
  }
  parse(arg: string): Buffer {
    const hex = arg.startsWith('0x') ? arg.slice(2) : arg;
    if (!/^(?:[0-9a-fA-F]{2})*$/.test(hex)) throw new ValueError(`'${arg}' is not hex bytes`);
    return Buffer.from(hex, 'hex');
  }
  override toDb(value: unknown): unknown {
    return typeof value === 'string' ? Buffer.from(value, 'hex') : value;
  }
  override fromDb(value: unknown): unknown {
    return value instanceof Uint8Array ? Buffer.from(value).toString('hex') : value;
  }
  override schema(): Record<string, unknown> {
    return { type: 'string', format: 'hex' };
  }
}
