/**
 * A catalog table together with the TypeScript types of its rows, so that `ctx.append(tables.op, row)`
 * and `CatalogRows.of(db, table, tables.op)` are checked by the compiler. Handles are generated from
 * tables.yaml (`npm run gen`) into each plugin's `tables.generated.ts`; the row types are only
 * compile-time companions of the code: `R` what writers pass, `Q` what a read through CatalogRows holds.
 */
export interface TableHandle<R, Q = Record<string, unknown>> {
  readonly code: string;
  /** Never set: carries the written row type. */
  readonly row?: R;
  /** Never set: carries the read row type. */
  readonly read?: Q;
}

export function tableHandle<R, Q = Record<string, unknown>>(code: string): TableHandle<R, Q> {
  return { code };
}

/** The code of a table given by handle or by name. */
export function tableCode(table: TableHandle<unknown, unknown> | string): string {
  return typeof table === 'string' ? table : table.code;
}

/** The read row type a handle carries: `ReadOf<typeof tables.account>` for another plugin's table. */
export type ReadOf<H> = H extends TableHandle<unknown, infer Q> ? Q : never;
