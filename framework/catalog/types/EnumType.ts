import { BaseColumnType, BinaryFields, Encoding, EQUALITY_OPERATORS, ValueError } from './ColumnType';

/**
 * A closed set of labels, stored as a `smallint`: the label's position in the declared list (0 for the
 * first), named again at the API edge in every encoding (compact and CSV rows map the code in JS; objects,
 * whose text rows records are built from, get the label from SQL); filters parse labels to positions. The
 * declared order is therefore part of the stored data: a new label goes at the end of the list, and
 * no label is removed or moved (docs/tables.md, Column types).
 */
export class EnumType extends BaseColumnType {
  readonly name: string;
  override readonly tsType: string;
  override readonly readTsType: string;
  readonly sqlType = 'smallint';
  override readonly operators = EQUALITY_OPERATORS;
  override readonly converts = true;
  private readonly codes: ReadonlyMap<string, number>;
  /** The labels as an SQL array constant, in order. */
  private readonly labels: string;

  constructor(readonly values: readonly string[]) {
    super();
    if (values.length === 0) throw new Error('enum needs at least one value');
    if (new Set(values).size !== values.length) throw new Error(`enum(${values.join(',')}) repeats a value`);
    this.name = `enum(${values.join(',')})`;
    this.tsType = values.map((v) => `'${v.replace(/[\\']/g, '\\$&')}'`).join(' | ');
    this.readTsType = this.tsType;
    this.codes = new Map(values.map((v, i) => [v, i]));
    this.labels = `array[${values.map((v) => `'${v.replace(/'/g, "''")}'`).join(', ')}]::text[]`;
  }

  parse(arg: string): number {
    const code = this.codes.get(arg);
    if (code === undefined) throw new ValueError(`'${arg}' is not one of ${this.values.join(', ')}`);
    return code;
  }
  override select(ref: string, enc: Encoding): string {
    return enc === 'object' ? this.valueSql(ref) : `${ref}::text`;
  }
  override valueSql(ref: string): string {
    return `(${this.labels})[${ref} + 1]`;
  }
  override holds(value: unknown): boolean {
    if (typeof value === 'string') return this.codes.has(value);
    return typeof value === 'number' && Number.isInteger(value) && value >= 0 && value < this.values.length;
  }
  override holdsSql(ref: string): string {
    return `${ref}::text = any(${this.labels})`;
  }
  /** The label of a stored code (`select` renders the code as decimal text but for objects). */
  private label(code: string | number): string {
    const label = this.values[Number(code)];
    if (label === undefined) throw new Error(`${code} is no code of ${this.name}`);
    return label;
  }
  override json(raw: string, enc: Encoding): string {
    return JSON.stringify(enc === 'object' ? raw : this.label(raw));
  }
  override objectValue(raw: string): unknown {
    return raw;
  }
  override csv(raw: string): string {
    return this.label(raw);
  }
  override toDb(value: unknown): unknown {
    if (typeof value !== 'string') return value;
    const code = this.codes.get(value);
    if (code === undefined) throw new Error(`'${value}' is not one of ${this.name}`);
    return code;
  }
  override writeBinary(value: unknown, out: BinaryFields): void {
    out.int16(this.toDb(value) as number);
  }
  override fromDb(value: unknown): unknown {
    return typeof value === 'number' ? this.label(value) : value;
  }
  /** Text labels of an earlier schema become their positions; a label not in the list fails the migration. */
  override convertFrom(ref: string, previous: string): string | undefined {
    if (previous !== 'text') return undefined;
    return `(array_position(${this.labels}, ${ref}::text) - 1)::smallint`;
  }
  override schema(): Record<string, unknown> {
    return { type: 'string', enum: [...this.values] };
  }
}
