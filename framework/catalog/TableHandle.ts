/**
 * A catalog table together with the TypeScript type of its rows, so that `ctx.append(tables.op, row)`
 * is checked by the compiler. Handles are generated from tables.yaml (`npm run gen`) into each
 * plugin's `tables.generated.ts`; the row type is only a compile-time companion of the code.
 */
export interface TableHandle<R> {
  readonly code: string;
  /** Never set: carries the row type. */
  readonly row?: R;
}

export function tableHandle<R>(code: string): TableHandle<R> {
  return { code };
}

/** The code of a table given by handle or by name. */
export function tableCode(table: TableHandle<unknown> | string): string {
  return typeof table === 'string' ? table : table.code;
}
