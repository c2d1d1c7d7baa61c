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
  metadata: {
    balance_updates: BalanceUpdate[];
    implicit_operations_results: { balance_updates?: BalanceUpdate[] }[];
    [k: string]: unknown;
  };
  operations: { hash: string; contents: Content[] }[][];
}

/** Parsed blocks 1..head of a chain, through the node's own JSON rendering. */
export function blocksOf(chain: SandboxChain, from = 1): Block[] {
  const out: Block[] = [];
  for (let level = from; level <= chain.headLevel; level++)
    out.push(JSON.parse(chain.blockJson(chain.at(level)!)) as Block);
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
  for (const r of block.metadata.implicit_operations_results ?? [])
    if (r.balance_updates) lists.push(r.balance_updates);
  for (const op of block.operations.flat()) {
    for (const c of op.contents) {
      const m = c.metadata;
      if (!m) continue;
      if (m.balance_updates) lists.push(m.balance_updates);
      if (m.operation_result?.status === 'applied' && m.operation_result.balance_updates)
        lists.push(m.operation_result.balance_updates);
      for (const i of m.internal_operation_results ?? [])
        if (i.result.status === 'applied' && i.result.balance_updates) lists.push(i.result.balance_updates);
    }
  }
  return lists;
}

export interface LazyStorageDiffItem {
  kind: string;
  id: string;
  diff: {
    action: 'alloc' | 'copy' | 'update' | 'remove';
    source?: string;
    updates?: { key_hash: string; value?: unknown }[];
  };
}

export interface AppliedResult {
  /** The contract a transaction result belongs to (its storage is that contract's), if any. */
  contract?: string;
  result: { storage?: unknown; lazy_storage_diff?: LazyStorageDiffItem[]; originated_contracts?: string[] };
}

/**
 * Results that took effect, in the sandbox's application order: the bootstrap originations (implicit
 * migration results), each applied operation result followed by its applied internal results, then the
 * LB subsidy (see docs/sandbox.md: Octez applies it before the operations).
 */
export function appliedResults(block: Block): AppliedResult[] {
  const implicit = (block.metadata.implicit_operations_results ?? []) as (AppliedResult['result'] & {
    kind: string;
    balance_updates?: BalanceUpdate[];
  })[];
  const out: AppliedResult[] = implicit.filter((r) => r.kind === 'origination').map((result) => ({ result }));
  for (const op of block.operations.flat())
    for (const c of op.contents) {
      const m = c.metadata;
      if (m?.operation_result?.status !== 'applied') continue;
      out.push({
        contract: c.kind === 'transaction' ? (c.destination as string) : undefined,
        result: m.operation_result as AppliedResult['result'],
      });
      for (const i of m.internal_operation_results ?? []) {
        const internal = i as typeof i & { destination?: string };
        if (internal.result.status === 'applied')
          out.push({
            contract: internal.kind === 'transaction' ? internal.destination : undefined,
            result: internal.result as AppliedResult['result'],
          });
      }
    }
  // The subsidy's result names no destination: it is the contract its balance updates credit.
  for (const result of implicit.filter((r) => r.kind === 'transaction'))
    out.push({
      contract: result.balance_updates?.find((u) => u.kind === 'contract' && BigInt(u.change) > 0n)?.contract,
      result,
    });
  return out;
}
