import { expect } from 'chai';
import type { TestInstance } from './TestInstance';

/** The row ids `/tables/{table}?columns=row_id&{query}` answers, in order (the answer must be a 200). */
export async function tableIds(t: TestInstance, table: string, query: string): Promise<number[]> {
  const res = await t.get(`/tables/${table}?columns=row_id&${query}`);
  const text = await res.text();
  expect(res.status, text.slice(0, 300)).to.equal(200);
  return (JSON.parse(text) as number[][]).map((r) => r[0]);
}
