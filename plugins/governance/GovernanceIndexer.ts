import type { IndexContext, Logger, NormalizedBlock } from '../../framework';
import { BlockVoting } from './BlockVoting';
import type { GovernanceTables } from './GovernanceTables';
import { loadMemory, type GovernanceMemory } from './OpenPeriod';
import { isPeriodKind } from './PeriodKind';

/**
 * governance's block handler. The open period (listings, who voted) stays in memory between blocks;
 * it is reloaded from the tables after a restart, a rollback or a failed batch (a block at or below
 * the last one seen), so the memory never outlives the rows it describes.
 */
export class GovernanceIndexer {
  private memory?: GovernanceMemory;

  constructor(
    private readonly tables: GovernanceTables,
    private readonly log: Logger,
  ) {}

  /** After a rollback the tables are the truth again. */
  forget(): void {
    this.memory = undefined;
  }

  async index(block: NormalizedBlock, ctx: IndexContext): Promise<void> {
    const known = this.memory;
    // Invalid until this block is done: a failing block must not leave half-counted votes behind.
    this.memory = undefined;
    const memory = known && block.level > (known.last?.level ?? -1) ? known : await loadMemory(ctx.read, this.tables, block.level);
    const { votingPeriod, votingPeriodKind } = block;
    // Genesis and blocks without metadata say nothing about voting periods.
    if (votingPeriod !== undefined && isPeriodKind(votingPeriodKind)) await new BlockVoting({ ...block, votingPeriod }, votingPeriodKind, ctx, memory, this.log).run();
    memory.last = { level: block.level, time: block.time, protocol: block.protocol };
    this.memory = memory;
  }
}
