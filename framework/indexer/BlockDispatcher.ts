import { Knex } from 'knex';
import { NormalizedBlock, NormalizedOperation } from '../chain';
import { TableHandle } from '../catalog/TableHandle';
import { ContractTypes } from '../michelson/ContractTypes';
import { BatchState } from './BatchState';
import { DerivedTables, RecomputeFn } from './DerivedTables';
import { codeMatches, ContractFacts, GroupMatcher, isStepCandidate, operationGroups } from './groups/GroupMatcher';
import { GroupPatternOptions, PatternStep } from './groups/GroupPattern';
import {
  BatchHookFn,
  BlockHandlerFn,
  BlocksDoneFn,
  BlocksStartContext,
  BlocksStartFn,
  ContractSelector,
  GroupHandlerFn,
  HandlerRegistry,
  IndexContext,
  OperationFilter,
  OperationHandlerFn,
  RollbackHookFn,
} from './IndexContext';
import { ContractDirectory } from './watch/ContractDirectory';
import type { KnownCode } from './watch/KnownCode';
import { WatchList } from './watch/WatchList';

type Subscription =
  | { kind: 'block'; fn: BlockHandlerFn }
  | { kind: 'op'; matches: (op: NormalizedOperation) => boolean; fn: OperationHandlerFn }
  | GroupSubscription;
type GroupSubscription = { kind: 'group'; matcher: GroupMatcher<string>; fn: GroupHandlerFn<string> };

/**
 * The one dispatcher every plugin's handlers hang off. Subscriptions run in the order they were made,
 * which is plugin dependency order (the framework calls each plugin's `handlers` in that order), so a
 * plugin always sees what the plugins it depends on wrote for the same block.
 */
export class BlockDispatcher implements HandlerRegistry {
  private readonly subscriptions: Subscription[] = [];
  private readonly claims: Array<{ role: string; selector: ContractSelector }> = [];
  private readonly batchHooks: BatchHookFn[] = [];
  private readonly blocksStartHooks: BlocksStartFn[] = [];
  private readonly blocksDoneHooks: BlocksDoneFn[] = [];
  private readonly rollbackHooks: RollbackHookFn[] = [];
  private readonly preRollbackHooks: RollbackHookFn[] = [];
  /** The recompute hooks of derived tables (the indexer calls them on a reorg). */
  readonly derived = new DerivedTables();
  /** The plugins' state between blocks (`ctx.state`); the indexer drops it on failure and rollback. */
  readonly state = new BatchState();

  /** The contracts plugins watch, and what the framework knows of their code. */
  constructor(readonly contracts: ContractDirectory = new ContractDirectory(new WatchList())) {}

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

  onOperationGroup<N extends string>(
    steps: readonly PatternStep<N>[],
    fn: GroupHandlerFn<N>,
    options?: GroupPatternOptions,
  ): void {
    this.subscriptions.push({
      kind: 'group',
      matcher: new GroupMatcher(steps, options),
      fn: fn as GroupHandlerFn<string>,
    });
  }

  claim(role: string, selector: ContractSelector): void {
    this.claims.push({ role, selector });
  }

  knownCode(code: KnownCode): void {
    this.contracts.known.add(code);
  }

  blocksStart(hook: BlocksStartFn): void {
    this.blocksStartHooks.push(hook);
  }

  blocksDone(hook: BlocksDoneFn): void {
    this.blocksDoneHooks.push(hook);
  }

  afterBatch(hook: BatchHookFn): void {
    this.batchHooks.push(hook);
  }

  recompute(table: TableHandle<unknown> | string, hook: RecomputeFn): void {
    this.derived.add(table, hook);
  }

  beforeRollback(hook: RollbackHookFn): void {
    this.preRollbackHooks.push(hook);
  }

  afterRollback(hook: RollbackHookFn): void {
    this.rollbackHooks.push(hook);
  }

  async dispatch(block: NormalizedBlock, ctx: IndexContext): Promise<void> {
    this.claimOriginations(block);
    // Most groups (attestations) hold no operation a pattern step can match: they are not tried at all.
    const groups = this.subscriptions.some((s) => s.kind === 'group')
      ? operationGroups(block).filter((g) => g.some(isStepCandidate))
      : [];
    const watches = this.contracts.watches;
    const untyped: ContractFacts = { roles: (a) => watches.roles(a), types: () => undefined };
    const subs = this.subscriptions;
    for (let i = 0; i < subs.length; i++) {
      const s = subs[i];
      if (s.kind === 'block') await s.fn(block, ctx);
      else if (s.kind === 'op') {
        for (const op of block.operations) if (s.matches(op)) await s.fn(op, ctx);
      } else {
        // Consecutive group patterns see the groups in chain order, each group by every pattern in turn: records of
        // one contract made by different patterns (a pool's swap and its LP transfer) keep the chain's order.
        let end = i;
        while (end + 1 < subs.length && subs[end + 1].kind === 'group') end++;
        const run = subs.slice(i, end + 1) as GroupSubscription[];
        i = end;
        for (const group of groups)
          for (const g of run) {
            // Most groups cannot match, as is known without contract types: no lookup and no promise for them.
            if (!g.matcher.mayMatch(group)) continue;
            if (!g.matcher.needsTypes && g.matcher.match(group, untyped, block.level).length === 0) continue;
            for (const m of await this.matchGroup(g.matcher, group, block, ctx)) await g.fn(m, ctx);
          }
      }
    }
  }

  /** Claims run before any handler, so a contract originated and called in one block is matched. */
  private claimOriginations(block: NormalizedBlock): void {
    if (this.claims.length === 0) return;
    for (const op of block.operations) {
      if (op.type !== 'origination' || op.status !== 'applied' || op.originatedContracts.length === 0) continue;
      const types = ContractTypes.fromScript(op.script);
      if (!types) continue;
      for (const { role, selector } of this.claims) {
        if (codeMatches(selector, types))
          this.contracts.watches.add({ address: op.originatedContracts[0], role, height: block.level, types });
      }
    }
  }

  /** A group's matches with the types of its contracts looked up (node, cache): every group when steps need code. */
  private async matchGroup(
    matcher: GroupMatcher<string>,
    group: NormalizedOperation[],
    block: NormalizedBlock,
    ctx: IndexContext,
  ) {
    const known = new Map<string, ContractTypes | undefined>();
    const watches = this.contracts.watches;
    const facts: ContractFacts = { roles: (a) => watches.roles(a), types: (a) => known.get(a) };
    for (const address of matcher.contracts(group))
      known.set(address, await this.contracts.types(address, block, (p) => ctx.node(p)));
    return matcher.match(group, facts, block.level);
  }

  /** When the batch opens, before its first block. */
  async batchStarting(blocks: readonly NormalizedBlock[], ctx: BlocksStartContext): Promise<void> {
    for (const h of this.blocksStartHooks) await h(blocks, ctx);
  }

  /** After the batch's last block (its context), before its writes are flushed. */
  async allBlocksHandled(ctx: IndexContext): Promise<void> {
    for (const h of this.blocksDoneHooks) await h(ctx);
  }

  async batchDone(trx: Knex.Transaction, from: number, to: number): Promise<void> {
    for (const h of this.batchHooks) await h(trx, from, to, this.state);
  }

  async rollingBack(trx: Knex.Transaction, height: number): Promise<void> {
    for (const h of this.preRollbackHooks) await h(trx, height);
  }

  async rolledBack(trx: Knex.Transaction, height: number): Promise<void> {
    for (const h of this.rollbackHooks) await h(trx, height);
  }
}
