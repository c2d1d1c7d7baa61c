import type { Database } from '../../framework/storage/Database';

export type PlanNode = Record<string, unknown>;

/** The plan of `sql` (with `?` placeholders for `bindings`) as EXPLAIN ANALYZE ran it. */
export async function explainAnalyze(db: Database, sql: string, bindings: readonly string[] = []): Promise<PlanNode> {
  const [
    {
      'QUERY PLAN': [explained],
    },
  ] = (await db.writer.raw(`explain (analyze, format json) ${sql}`, bindings)).rows;
  return explained.Plan;
}

/** A sum over the plan's nodes (subplans too) of what `count` says of each. */
function total(node: PlanNode, count: (node: PlanNode) => number): number {
  return count(node) + ((node.Plans as PlanNode[] | undefined) ?? []).reduce((n, p) => n + total(p, count), 0);
}

/**
 * Runs `sql` under EXPLAIN ANALYZE and counts the rows its scans read and then dropped by a filter,
 * over the whole plan (subplans too): what a plan test bounds to show that an index found the rows.
 * Answers the plan as well, for the failure message.
 */
export async function droppedRows(db: Database, sql: string): Promise<{ dropped: number; plan: PlanNode }> {
  const plan = await explainAnalyze(db, sql);
  return {
    dropped: total(plan, (node) => Number(node['Rows Removed by Filter'] ?? 0) * Number(node['Actual Loops'] ?? 1)),
    plan,
  };
}

/**
 * Rows the plan's scans of `relation` read: those they passed on and those their filters dropped. A
 * partitioned table's are its partitions' (HeightPartitions names them `{table}_h{from}`, `{table}_default`).
 */
export function rowsRead(plan: PlanNode, relation: string): number {
  const own = new RegExp(`^${relation}(_h\\d+|_default)?$`);
  return total(plan, (node) =>
    own.test(String(node['Relation Name']))
      ? (Number(node['Actual Rows']) + Number(node['Rows Removed by Filter'] ?? 0)) * Number(node['Actual Loops'] ?? 1)
      : 0,
  );
}
