import { BaseColumnType, BinaryFields, Encoding, EQUALITY_OPERATORS, ValueError } from './ColumnType';

const TRUE = new Set(['1', 't', 'true', 'yes', 'on']);
const FALSE = new Set(['0', 'f', 'false', 'no', 'off']);

/** `1`/`0` in compact JSON (as the original service), `true`/`false` in CSV and objects. */
export class BoolType extends BaseColumnType {
  readonly name = 'bool';
  override readonly tsType = 'boolean';
  override readonly readTsType = 'boolean';
  readonly sqlType = 'boolean';
  override readonly operators = EQUALITY_OPERATORS;

  override json(raw: string, enc: Encoding): string {
    if (enc === 'compact') return raw === 'true' ? '1' : '0';
    return raw;
  }
  override objectValue(raw: string): unknown {
    return raw === 'true';
  }
  parse(arg: string): boolean {
    const v = arg.trim().toLowerCase();
    if (TRUE.has(v)) return true;
    if (FALSE.has(v)) return false;
    throw new ValueError(`'${arg}' is not a boolean (use 1/0 or true/false)`);
  }
  override writeBinary(value: unknown, out: BinaryFields): void {
    out.bool(typeof value === 'boolean' ? value : this.parse(String(value)));
  }
  override schema(enc: Encoding): Record<string, unknown> {
    return enc === 'compact' ? { type: 'integer', enum: [0, 1] } : { type: 'boolean' };
  }
}
