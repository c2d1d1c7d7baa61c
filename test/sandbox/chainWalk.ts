import type { SandboxChain } from '../../framework/sandbox';

export interface Content {
  kind: string;
  source?: string;
  counter?: string;
  metadata?: {
    balance_updates?: BalanceUpdate[];
    operation_result?: { status: string; balance_updates?: BalanceUpdate[]; errors?: unknown[] };
    internal_operation_results?: { kind: string; result: { status: string; balance_updates?: BalanceUpdate[] } }[];
  };
  [k: string]: unknown;
}

export interface BalanceUpdate {
  kind: string;
  change: string;
  contract?: string;
  [k: string]: unknown;
}

export interface Block {
  hash: string;
  header: { level: number; predecessor: string; [k: string]: unknown };
  metadata: { balance_updates: BalanceUpdate[]; implicit_operations_results: { balance_updates?: BalanceUpdate[] }[]; [k: string]: unknown };
  operations: { hash: string; contents: Content[] }[][];
}

/** Parsed blocks 1..head of a chain, through the node's own JSON rendering. */
export function blocksOf(chain: SandboxChain, from = 1): Block[] {
  const out: Block[] = [];
  for (let level = from; level <= chain.headLevel; level++) out.push(JSON.parse(chain.blockJson(chain.at(level)!)) as Block);
  return out;
}

export function contentsOf(blocks: Block[]): Content[] {
  return blocks.flatMap((b) => b.operations.flat().flatMap((op) => op.contents));
}

/**
 * Every balance-update list that took effect, as an indexer reads them: block and implicit results,
 * operation fees, and operation/internal results whose status is `applied` (backtracked receipts are
 * reverted on chain and must be ignored).
 */
export function effectiveUpdateLists(block: Block): BalanceUpdate[][] {
  const lists: BalanceUpdate[][] = [block.metadata.balance_updates];
  for (const r of block.metadata.implicit_operations_results ?? []) if (r.balance_updates) lists.push(r.balance_updates);
  for (const op of block.operations.flat()) {
    for (const c of op.contents) {
      const m = c.metadata;
      if (!m) continue;
      if (m.balance_updates) lists.push(m.balance_updates);
      if (m.operation_result?.status === 'applied' && m.operation_result.balance_updates) lists.push(m.operation_result.balance_updates);
      for (const i of m.internal_operation_results ?? []) if (i.result.status === 'applied' && i.result.balance_updates) lists.push(i.result.balance_updates);
    }
  }
  return lists;
}
