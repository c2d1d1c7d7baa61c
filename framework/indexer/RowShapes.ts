import { storedColumns, type TableDef } from '../catalog/CatalogModel';
import type { Row } from '../storage/BulkWriter';

/**
 * Row copies and patches compiled once per table from its catalog columns. Why: the indexer copies
 * every appended row and patches every changed entity, hundreds of thousands a batch, and V8's
 * generic paths for objects of 30–50 properties (`{...row}`, `Object.assign`) cost 0.6–2.4 µs each;
 * an object literal or assignments over known names cost a tenth of that, and give every row of a
 * table one hidden class.
 */
export interface RowShape {
  /**
   * The stored columns of `row` (undefined where it has none) plus `row_id`; other keys are not stored, so not kept.
   */
  copy(row: Row, rowId: bigint): Row;
  /** `Object.assign(entity, patch)`, as fast as a literal where the patch holds columns only. */
  assign(entity: Row, patch: Row): void;
}

const shapes = new WeakMap<TableDef, RowShape>();

export function rowShape(table: TableDef): RowShape {
  let shape = shapes.get(table);
  if (!shape) shapes.set(table, (shape = compile(table)));
  return shape;
}

function compile(table: TableDef): RowShape {
  // Catalog names are identifiers (a-z, 0-9, _), quoted anyway; a name Object.prototype also has
  // (`constructor`) must be the row's own property, not the inherited one.
  const names = storedColumns(table)
    .map((c) => c.name)
    .filter((n) => n !== 'row_id');
  const own = (obj: string, n: string): string =>
    n in Object.prototype
      ? `(Object.hasOwn(${obj}, ${JSON.stringify(n)}) ? ${obj}[${JSON.stringify(n)}] : undefined)`
      : `${obj}[${JSON.stringify(n)}]`;
  const copy = new Function(
    'row',
    'rowId',
    `return { ${names.map((n) => `${JSON.stringify(n)}: ${own('row', n)}`).join(', ')}, row_id: rowId };`,
  ) as RowShape['copy'];
  // Assigns each column the patch defines; a patch with other keys, or with a column set to
  // undefined, is not all columns: Object.assign then does it exactly.
  const assigned = new Function(
    'e',
    'p',
    `let n = 0, v;\n${names.map((n) => `if ((v = ${own('p', n)}) !== undefined) { e[${JSON.stringify(n)}] = v; n++; }`).join('\n')}\nreturn n;`,
  ) as (e: Row, p: Row) => number;
  return {
    copy,
    assign: (entity, patch) => {
      if (assigned(entity, patch) !== keyCount(patch)) Object.assign(entity, patch);
    },
  };
}

/**
 * How many keys a patch has, without the array `Object.keys` makes (one per patch adds up). A for-in
 * also counts inherited enumerable keys, which plain objects do not have: were there any, the count
 * would only send the patch to Object.assign.
 */
function keyCount(row: Row): number {
  let n = 0;
  for (const _ in row) n++;
  return n;
}
