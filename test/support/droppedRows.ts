import type { Database } from '../../framework/storage/Database';

type PlanNode = Record<string, unknown>;

/**
 * Runs `sql` under EXPLAIN ANALYZE and counts the rows its scans read and then dropped by a filter,
 * over the whole plan (subplans too): what a plan test bounds to show that an index found the rows.
 * Answers the plan as well, for the failure message.
 */
export async function droppedRows(db: Database, sql: string): Promise<{ dropped: number; plan: PlanNode }> {
  const [{ 'QUERY PLAN': [explained] }] = (await db.writer.raw(`explain (analyze, format json) ${sql}`)).rows;
  const dropped = (node: PlanNode): number =>
    Number(node['Rows Removed by Filter'] ?? 0) * Number(node['Actual Loops'] ?? 1) + ((node.Plans as PlanNode[] | undefined) ?? []).reduce((n, p) => n + dropped(p), 0);
  return { dropped: dropped(explained.Plan), plan: explained.Plan };
}
