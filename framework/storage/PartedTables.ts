import { Knex } from 'knex';
import {
  type ColumnDef,
  type ColumnFollows,
  storedColumns,
  type TableDef,
  type TableParts,
} from '../catalog/CatalogModel';
import type { Row } from './BulkWriter';
import { quote } from './SchemaMigrator';

/**
 * SQL and row routing of tables stored in parts (TablePartsDecl): the view every read uses, which
 * narrow table takes a row, and the same test in SQL for rows already in the main table.
 */
type Part = TableParts['narrow'][number];

const name = (t: TableDef | ColumnFollows): string => `${quote(t.schema)}.${quote(t.storage)}`;

/**
 * The view: the main table's rows and each narrow table's, with its `by` value, the constants as
 * typed literals and the columns that follow the height from the table they follow (block's cycle and
 * time, its main-chain row at the height, read by a subquery on its height index). Each branch is a table
 * scan, so the planner pushes filters into every branch (their indexes serve them),
 * drops a branch whose `by` literal contradicts a filter, and merges the branches in row-id order (Merge
 * Append) for ordered lists and cursors. Statements: the view, and its insert trigger.
 */
export function viewSql(knex: Knex, table: TableDef): string[] {
  const parts = table.parts!;
  const columns = storedColumns(table);
  const names = columns.map((c) => quote(c.name)).join(', ');
  const main = `select ${names} from ${name(parts.main)}`;
  // A followed column (block's cycle, time) is read by a scalar subquery on the followed table's height index,
  // not a join: a join's plan (a hash join to the block) loses the narrow table's row-id order, so ordered lists
  // and max(row_id) read every narrow row; a subquery keeps each branch an index scan in row-id order.
  const followed = (c: ColumnDef): string => {
    const f = c.followsHeight!;
    const orphan = f.orphan ? ` and not f.${quote(f.orphan)}` : '';
    const on = `f.${quote(f.height)} = n.${quote(table.heightColumn!)}${orphan}`;
    return `(select f.${quote(f.column)} from ${name(f)} f where ${on}) as ${quote(c.name)}`;
  };
  const narrow = parts.narrow.map((p) => {
    const list = columns.map((c) => {
      if (c === parts.by) return `${literal(knex, c, p.value)} as ${quote(c.name)}`;
      const constant = parts.constants.find((k) => k.column === c);
      if (constant) return `${literal(knex, c, constant.value)} as ${quote(c.name)}`;
      if (parts.followed.includes(c)) return followed(c);
      // Stored narrower (TablePartsDecl.types): read as the table's type (an enum's code as its label).
      const narrowed = p.narrowed.find((n) => n.name === c.name);
      return narrowed
        ? `${narrowed.type.valueSql(`n.${quote(c.name)}`)}::${c.type.sqlType} as ${quote(c.name)}`
        : `n.${quote(c.name)}`;
    });
    return `select ${list.join(', ')} from ${name(p.table)} n`;
  });
  // Rows an operator (or a test) inserts into the view go to the main table, which holds any row; without
  // a row id they take the next of its identity.
  const insert = quote(`${table.storage}_insert`);
  const nextId = knex
    .raw(`coalesce(new."row_id", nextval(pg_get_serial_sequence(?, 'row_id')))`, [name(parts.main)])
    .toQuery();
  const values = columns.map((c) => (c.name === 'row_id' ? nextId : `new.${quote(c.name)}`)).join(', ');
  const fn = `${quote(table.schema)}.${insert}`;
  return [
    `create view ${name(table)} as ${[main, ...narrow].join(' union all ')}`,
    `create or replace function ${fn}() returns trigger language plpgsql as $$ begin
       insert into ${name(parts.main)} (${names}) values (${values});
       return new; end $$`,
    `create trigger ${insert} instead of insert on ${name(table)} for each row execute function ${fn}()`,
  ];
}

function literal(knex: Knex, c: ColumnDef, value: unknown): string {
  const sql = value === null ? 'null' : knex.raw('?', [value as Knex.Value]).toQuery();
  return `${sql}::${c.type.sqlType}`;
}

/** The narrow table a written row fits, or undefined: it keeps every column in the main table. */
export function partOf(parts: TableParts, row: Row): Part | undefined {
  const value = parts.by.type.toDb(row[parts.by.name]);
  const part = parts.narrow.find((p) => p.value === value);
  if (!part) return undefined;
  for (const { column, value: constant } of parts.constants) {
    const v = row[column.name];
    const fits =
      constant === null
        ? v === undefined || v === null || (column.sparse === true && (v === 0 || v === 0n || v === '0'))
        : String(column.type.toDb(v)) === String(constant);
    if (!fits) return undefined;
  }
  for (const column of part.narrowed) {
    const v = row[column.name];
    if (v !== undefined && v !== null && !column.type.holds(v)) return undefined;
  }
  return part;
}

/** `partOf` in SQL: the main table's rows that fit a narrow table (a database of an earlier schema). */
export function fitsSql(knex: Knex, parts: TableParts, part: Part): string {
  const conditions = [`${quote(parts.by.name)} = ${literal(knex, parts.by, part.value)}`];
  for (const { column, value } of parts.constants) {
    const ref = quote(column.name);
    if (value !== null) conditions.push(`${ref} = ${literal(knex, column, value)}`);
    else if (column.sparse) conditions.push(`coalesce(${ref}, 0) = 0`);
    else conditions.push(`${ref} is null`);
  }
  for (const column of part.narrowed) {
    const holds = column.type.holdsSql(quote(column.name));
    if (holds !== undefined) conditions.push(`(${quote(column.name)} is null or ${holds})`);
  }
  return conditions.join(' and ');
}
