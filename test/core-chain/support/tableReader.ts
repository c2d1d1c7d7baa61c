import { expect } from 'chai';
import { tezToMutez } from '../../../framework';
import { parseCsv } from '../../support/SampleTable';
import type { TestInstance } from '../../support/TestInstance';

/** One table row as the CSV API sends it: every value a string, `''` for null. */
export type CsvRow = Record<string, string>;

/**
 * All rows of a table through `GET /tables/{table}.csv` (paged by row_id), with the given columns;
 * rows lists leave out by default (a column's hidden values, e.g. op type `event`; orphans) are
 * asked for unless the filters name that column.
 */
export async function readTable(
  t: TestInstance,
  table: string,
  columns: readonly string[],
  given = '',
): Promise<CsvRow[]> {
  const filters = [given, ...everyValueFilters(t, table, given)].filter((f) => f !== '').join('&');
  const out: CsvRow[] = [];
  const wanted = ['row_id', ...columns.filter((c) => c !== 'row_id')];
  let cursor: string | undefined;
  for (;;) {
    const query = `columns=${wanted.join(',')}&limit=50000${cursor ? `&cursor=${cursor}` : ''}${filters ? `&${filters}` : ''}`;
    const res = await t.get(`/tables/${table}.csv?${query}`);
    const text = await res.text();
    expect(res.status, `${table}: ${text.slice(0, 300)}`).to.equal(200);
    const [header, ...rows] = parseCsv(text);
    expect(header).to.deep.equal(wanted);
    for (const r of rows) out.push(Object.fromEntries(header.map((h, i) => [h, r[i]])));
    if (rows.length < 50000) return out;
    cursor = rows[rows.length - 1][0];
  }
}

/** A money column (tez with 6 decimals in CSV) as mutez. */
export const mutez = (tez: string): bigint => tezToMutez(tez);

export const sumMutez = (rows: readonly CsvRow[], column: string): bigint =>
  rows.reduce((s, r) => s + mutez(r[column]), 0n);

export const sumInt = (rows: readonly CsvRow[], column: string): bigint =>
  rows.reduce((s, r) => s + BigInt(r[column] || '0'), 0n);

/** The newest row of a table (highest row_id). */
export async function lastRow(t: TestInstance, table: string, columns: readonly string[]): Promise<CsvRow> {
  const res = await t.get(`/tables/${table}.csv?columns=${columns.join(',')}&order=desc&limit=1`);
  const text = await res.text();
  expect(res.status, `${table}: ${text.slice(0, 300)}`).to.equal(200);
  const [header, row] = parseCsv(text);
  expect(row, `${table} is empty`).to.not.equal(undefined);
  return Object.fromEntries(header.map((h, i) => [h, row[i]]));
}

/** `col.in=<every value>` for each column with hidden values, and the orphan column, the given filters do not name. */
function everyValueFilters(t: TestInstance, table: string, given: string): string[] {
  const named = new Set(given.split('&').map((f) => f.split('=')[0].split('.')[0]));
  const def = t.app.catalog.table(table);
  const hidden = (def?.columns ?? [])
    .filter((c) => c.hiddenValues !== undefined && !named.has(c.name))
    .map((c) => `${c.name}.in=${(c.type.schema('compact') as { enum: string[] }).enum.join(',')}`);
  const orphan = def?.orphanColumn;
  return orphan && !named.has(orphan) ? [...hidden, `${orphan}.in=0,1`] : hidden;
}
