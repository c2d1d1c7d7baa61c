import { BaseColumnType, BinaryFields, ValueError } from './ColumnType';

/** Binary data, lowercase hex at the edge. */
export class BytesType extends BaseColumnType {
  readonly name = 'bytes';
  override readonly tsType = 'string | Uint8Array';
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
    if (typeof value === 'string') return Buffer.from(value, 'hex');
    // A Buffer that went through JSON (a rollback journal's pre-image) comes back as { type, data }.
    if (isJsonBuffer(value)) return Buffer.from(value.data);
    return value;
  }
  override writeBinary(value: unknown, out: BinaryFields): void {
    out.bytes(this.toDb(value) as Uint8Array);
  }
  override fromDb(value: unknown): unknown {
    return value instanceof Uint8Array ? Buffer.from(value).toString('hex') : value;
  }
  override schema(): Record<string, unknown> {
    return { type: 'string', format: 'hex' };
  }
}

/** A Buffer that went through JSON (a rollback journal's pre-image). */
export function isJsonBuffer(v: unknown): v is { type: 'Buffer'; data: number[] } {
  return (
    typeof v === 'object' &&
    v !== null &&
    (v as { type?: unknown }).type === 'Buffer' &&
    Array.isArray((v as { data?: unknown }).data)
  );
}
