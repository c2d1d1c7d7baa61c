import { expect } from 'chai';
import type { CsvRow } from '../../core-chain/support/tableReader';
import type { TestInstance } from '../../support/TestInstance';

/**
 * The positions' rows with `rewards_pending` as the API answers it (`/v1/farm/positions`): brought to
 * the farm's latest index, where the table keeps it as of each position's own latest change.
 */
export async function withApiPending(t: TestInstance, rows: readonly CsvRow[]): Promise<CsvRow[]> {
  const res = await t.get('/v1/farm/positions?with_closed=true&limit=10000');
  expect(res.status).to.equal(200);
  const answered = (await res.json()) as Array<{ pool: string; owner: string; rewards_pending: string | null }>;
  const pending = new Map(answered.map((p) => [`${p.pool}:${p.owner}`, p.rewards_pending ?? '']));
  return rows.map((r) => {
    const key = `${r.pool}:${r.owner}`;
    expect(pending.has(key), `${key} in /v1/farm/positions`).to.equal(true);
    return { ...r, rewards_pending: pending.get(key)! };
  });
}
