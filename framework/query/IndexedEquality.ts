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
export function whereIndexedEquality(
  q: Knex.QueryBuilder,
  column: string,
  value: Knex.Value,
  order: 'asc' | 'desc',
): Knex.QueryBuilder {
  return q.whereBetween(column, [value, value]).orderBy(column, order);
}

/**
 * The rows of several pages merged into one page of the list: each page (`select row_id`, a value on
 * one column read by its index: whereIndexedEquality) holds up to `offset + size` rows in the list's
 * order; their union (a row in several pages once) gives the `size` rows after `offset`. Why: no
 * index answers an OR over columns (op `address`, a wallet's DEX events as signer, sender or
 * receiver) in row-id order, so Postgres reads all of the value's rows and sorts them, or walks the
 * row-id index filtering; each page reads at most the rows answered.
 */
export function whereInMergedPages(
  knex: Knex,
  q: Knex.QueryBuilder,
  pages: readonly Knex.QueryBuilder[],
  order: 'asc' | 'desc',
  size: number,
  offset: number,
): Knex.QueryBuilder {
  const merged = knex
    .select('row_id')
    .from(knex.union([...pages], true).as('pages'))
    .orderBy('row_id', order)
    .limit(size);
  if (offset > 0) merged.offset(offset);
  return q.whereIn('row_id', merged).orderBy('row_id', order);
}
