import { expect } from 'chai';
import type { TableDef } from '../../framework/catalog/CatalogModel';
import type { Database } from '../../framework/storage/Database';
import type { TestInstance } from './TestInstance';

/** The row ids `/tables/{table}?columns=row_id&{query}` answers, in order (the answer must be a 200). */
export async function tableIds(t: TestInstance, table: string, query: string): Promise<number[]> {
  const res = await t.get(`/tables/${table}?columns=row_id&${query}`);
  const text = await res.text();
  expect(res.status, text.slice(0, 300)).to.equal(200);
  return (JSON.parse(text) as number[][]).map((r) => r[0]);
}

/** The columns a table's rows hold in the database, in order (what the migration made of the catalog). */
export async function heldColumns(db: Database, table: TableDef): Promise<string[]> {
  const { rows } = await db.writer.raw(
    'select column_name from information_schema.columns where table_schema = ? and table_name = ? order by ordinal_position',
    [table.schema, table.storage],
  );
  return (rows as Array<{ column_name: string }>).map((r) => r.column_name);
}
