import { ALL_OPERATORS, BaseColumnType } from './ColumnType';

/** Free text: the only type that takes the regular-expression operator. */
export class StringType extends BaseColumnType {
  readonly name = 'string';
  readonly sqlType = 'text';
  override readonly collation = 'C';
  override readonly operators = ALL_OPERATORS;

  parse(arg: string): string {
    return arg;
  }
}
