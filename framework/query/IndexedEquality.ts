import type { Knex } from 'knex';

/**
 * `column` = `value`, read by an index led by (column, row_id) in the list's order: said as a range
 * of one value and ordered by the column first, then (the caller) by the row id. Why: Postgres
 * estimates a frequent value's rows as spread evenly over the table, so for a busy account's newest
 * rows it walks the row-id index, filtering, expecting them soon; for an account busy once and idle
 * since (an old exchange or baker) that walk reads every row since its last, on mainnet the table.
 * An equality it knows as constant and drops from the order; a range of one value it does not, so
 * only that index answers in order without sorting all the account's rows, and it takes that index.
 */
export function whereIndexedEquality(q: Knex.QueryBuilder, column: string, value: Knex.Value, order: 'asc' | 'desc'): Knex.QueryBuilder {
  return q.whereBetween(column, [value, value]).orderBy(column, order);
}

