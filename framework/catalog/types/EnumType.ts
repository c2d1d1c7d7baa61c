import { BaseColumnType, EQUALITY_OPERATORS, ValueError } from './ColumnType';

/** A closed set of labels, stored and filtered by label. */
export class EnumType extends BaseColumnType {
  readonly name: string;
  override readonly tsType: string;
  override readonly readTsType: string;
  readonly sqlType = 'text';
  override readonly collation = 'C';
  override readonly operators = EQUALITY_OPERATORS;
  private readonly allowed: ReadonlySet<string>;

  constructor(readonly values: readonly string[]) {
    super();
    if (values.length === 0) throw new Error('enum needs at least one value');
    this.name = `enum(${values.join(',')})`;
    this.tsType = values.map((v) => `'${v.replace(/[\\']/g, '\\$&')}'`).join(' | ');
    this.readTsType = this.tsType;
    this.allowed = new Set(values);
  }

  parse(arg: string): string {
    if (!this.allowed.has(arg)) throw new ValueError(`'${arg}' is not one of ${this.values.join(', ')}`);
    return arg;
  }
  override schema(): Record<string, unknown> {
    return { type: 'string', enum: [...this.values] };
  }
}
