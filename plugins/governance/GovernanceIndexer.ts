import { carriedKey, type IndexContext, type Logger, type NormalizedBlock } from '../../framework';
import { BlockVoting } from './BlockVoting';
import type { GovernanceTables } from './GovernanceTables';
import { loadMemory, type GovernanceMemory } from './OpenPeriod';
import { isPeriodKind } from './PeriodKind';

/** The open period as the last block indexed left it. */
const MEMORY = carriedKey<GovernanceMemory | undefined>('governance.memory', () => undefined);

/**
 * governance's block handler. The open period (listings, who voted) stays in the framework's batch
 * state between blocks; it is reloaded from the tables after a restart, a rollback or a failed batch
 * (the framework drops it then), so the memory never outlives the rows it describes.
 */
export class GovernanceIndexer {
  constructor(
    private readonly tables: GovernanceTables,
    private readonly log: Logger,
  ) {}

  async index(block: NormalizedBlock, ctx: IndexContext): Promise<void> {
    const known = ctx.state.get(MEMORY);
    const memory =
      known && block.level > (known.last?.level ?? -1) ? known : await loadMemory(ctx.read, this.tables, block.level);
    const { votingPeriod, votingPeriodKind } = block;
    // Genesis and blocks without metadata say nothing about voting periods.
    if (votingPeriod !== undefined && isPeriodKind(votingPeriodKind))
      await new BlockVoting({ ...block, votingPeriod }, votingPeriodKind, ctx, memory, this.log).run();
    memory.last = { level: block.level, time: block.time, protocol: block.protocol };
    ctx.state.set(MEMORY, memory);
  }
}
