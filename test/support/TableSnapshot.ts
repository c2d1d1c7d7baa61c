import { expect } from 'chai';
import type { TestInstance } from './TestInstance';

/** Every catalog table of the instance, rows without row_id (reorgs legitimately renumber rows). */
export async function snapshotTables(t: TestInstance): Promise<Record<string, unknown[]>> {
  const out: Record<string, unknown[]> = {};
  for (const table of t.app.catalog.tables.values()) {
    const cols = table.columns.filter((c) => c.name !== 'row_id' && !c.name.endsWith('_id')).map((c) => c.name);
    const orphanFilter = table.orphanColumn ? `&${table.orphanColumn}=0` : '';
    const res = await t.get(`/tables/${table.code}?columns=${cols.join(',')}&limit=50000${orphanFilter}`);
    expect(res.status, table.code).to.equal(200);
    out[table.code] = ((await res.json()) as unknown[][]).map((r) => JSON.stringify(r)).sort();
  }
  return out;
}

/** Expects every table of `expected` to hold the same rows in `actual`; a failure lists the rows only one side has. */
export async function expectSameTables(actual: TestInstance, expected: TestInstance): Promise<void> {
  const [a, b] = [await snapshotTables(actual), await snapshotTables(expected)];
  for (const code of Object.keys(b)) {
    const onlyActual = a[code].filter((r) => !b[code].includes(r));
    const onlyExpected = b[code].filter((r) => !a[code].includes(r));
    expect({ onlyActual, onlyExpected }, `table ${code}`).to.deep.equal({ onlyActual: [], onlyExpected: [] });
  }
}
