import { Knex } from 'knex';
import { NormalizedBlock, NormalizedOperation } from '../chain';
import {
  BatchHookFn,
  BlockHandlerFn,
  HandlerRegistry,
  IndexContext,
  OperationFilter,
  OperationHandlerFn,
  RollbackHookFn,
} from './IndexContext';

type Subscription = { kind: 'block'; fn: BlockHandlerFn } | { kind: 'op'; matches: (op: NormalizedOperation) => boolean; fn: OperationHandlerFn };

/**
 * The one dispatcher every plugin's handlers hang off. Subscriptions run in the order they were made,
 * which is plugin dependency order (the framework calls each plugin's handlers() in that order), so a
 * plugin always sees what the plugins it depends on wrote for the same block.
 */
export class BlockDispatcher implements HandlerRegistry {
  private readonly subscriptions: Subscription[] = [];
  private readonly batchHooks: BatchHookFn[] = [];
  private readonly rollbackHooks: RollbackHookFn[] = [];
  private readonly preRollbackHooks: RollbackHookFn[] = [];

  onBlock(fn: BlockHandlerFn): void {
    this.subscriptions.push({ kind: 'block', fn });
  }

  onOperation(filter: OperationFilter, fn: OperationHandlerFn): void {
    const types = filter.types && new Set(filter.types);
    const contracts = filter.contracts && new Set(filter.contracts);
    const entrypoints = filter.entrypoints && new Set(filter.entrypoints);
    const matches = (op: NormalizedOperation): boolean =>
      (filter.includeFailed || op.status === 'applied') &&
      (!types || types.has(op.type)) &&
      (!contracts || (op.receiver !== undefined && contracts.has(op.receiver))) &&
      (!entrypoints || (op.entrypoint !== undefined && entrypoints.has(op.entrypoint)));
    this.subscriptions.push({ kind: 'op', matches, fn });
  }

  afterBatch(hook: BatchHookFn): void {
    this.batchHooks.push(hook);
  }

  beforeRollback(hook: RollbackHookFn): void {
    this.preRollbackHooks.push(hook);
  }

  afterRollback(hook: RollbackHookFn): void {
    this.rollbackHooks.push(hook);
  }

  async dispatch(block: NormalizedBlock, ctx: IndexContext): Promise<void> {
    for (const s of this.subscriptions) {
      if (s.kind === 'block') await s.fn(block, ctx);
      else for (const op of block.operations) if (s.matches(op)) await s.fn(op, ctx);
    }
  }

  async batchDone(trx: Knex.Transaction, from: number, to: number): Promise<void> {
    for (const h of this.batchHooks) await h(trx, from, to);
  }

  async rollingBack(trx: Knex.Transaction, height: number): Promise<void> {
    for (const h of this.preRollbackHooks) await h(trx, height);
  }

  async rolledBack(trx: Knex.Transaction, height: number): Promise<void> {
    for (const h of this.rollbackHooks) await h(trx, height);
  }
}
