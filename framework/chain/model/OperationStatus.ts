/**
 * Outcome of an operation row. `unknown` is only used when the node sent no receipt for a manager
 * operation (metadata omitted or `"too large"`); `RpcBlockSource` refetches such blocks with
 * `metadata=always`, so it shows up only with recorded or trimmed data.
 */
export type OperationStatus = 'applied' | 'failed' | 'backtracked' | 'skipped' | 'unknown';

const NODE_STATUSES: ReadonlySet<string> = new Set(['applied', 'failed', 'backtracked', 'skipped']);

export function toOperationStatus(value: unknown): OperationStatus {
  return typeof value === 'string' && NODE_STATUSES.has(value) ? (value as OperationStatus) : 'unknown';
}
