import { expect } from 'chai';
import type { CsvRow } from '../core-chain/support/tableReader';
import type { TestInstance } from './TestInstance';

/**
 * Table rows (with row_id) with some columns as a list route answers them for the same rows (its
 * `id`): for values the API brings up to date where they are read (farm pending rewards, lending
 * interest at the market's latest rates), where the table keeps them as of each row's latest change.
 */
export async function withApiColumns(
  t: TestInstance,
  route: string,
  rows: readonly CsvRow[],
  columns: readonly string[],
): Promise<CsvRow[]> {
  const res = await t.get(`${route}?with_closed=true&limit=10000`);
  expect(res.status, route).to.equal(200);
  const answered = new Map(((await res.json()) as Array<Record<string, unknown>>).map((r) => [String(r.id), r]));
  return rows.map((r) => {
    const record = answered.get(r.row_id);
    expect(record, `row ${r.row_id} in ${route}`).to.not.equal(undefined);
    return {
      ...r,
      ...Object.fromEntries(
        columns.map((c) => [c, record![c] === null || record![c] === undefined ? '' : String(record![c])]),
      ),
    };
  });
}
