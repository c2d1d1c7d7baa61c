import { Counter, Gauge, Registry } from 'prom-client';
import { singleton } from 'tsyringe';

export type IndexerState = 'connecting' | 'syncing' | 'synced' | 'failed' | 'stopped';

/**
 * The phases of committing a batch: opening it (entity stores, read-ahead hooks), the handlers, the
 * flush of its rows, the batch-end hooks (series rollups, stream events, plugins' afterBatch) with the
 * sync cursor, and the commit.
 */
export const BATCH_PHASES = ['open', 'handlers', 'flush', 'hooks', 'commit'] as const;
export type BatchPhase = (typeof BATCH_PHASES)[number];

/**
 * What /explorer/status and /metrics report about the indexer: mode, status, node height (`blocks`),
 * indexed height, progress, plus Prometheus series for rates and rollbacks.
 */
@singleton()
export class IndexerStatus {
  mode: 'sync' | 'serve' = 'serve';
  status: IndexerState = 'stopped';
  blocks = -1;
  indexed = -1;
  firstLevel?: number;
  lastError?: string;
  readonly registry = new Registry();
  private readonly indexedHeight = new Gauge({
    name: 'tzidx_indexed_height',
    help: 'height of the last indexed block',
    registers: [this.registry],
  });
  private readonly nodeHeight = new Gauge({
    name: 'tzidx_node_height',
    help: 'height of the node head',
    registers: [this.registry],
  });
  readonly blocksIndexed = new Counter({
    name: 'tzidx_blocks_indexed_total',
    help: 'blocks indexed',
    registers: [this.registry],
  });
  readonly opsIndexed = new Counter({
    name: 'tzidx_operations_indexed_total',
    help: 'operation rows indexed',
    registers: [this.registry],
  });
  readonly rollbacks = new Counter({
    name: 'tzidx_rollbacks_total',
    help: 'chain reorganizations rolled back',
    registers: [this.registry],
  });
  readonly rollbackDepth = new Counter({
    name: 'tzidx_rolled_back_blocks_total',
    help: 'blocks removed by rollbacks',
    registers: [this.registry],
  });
  private readonly phaseSeconds = new Counter({
    name: 'tzidx_batch_phase_seconds_total',
    help: `time spent committing batches, by phase (${BATCH_PHASES.join(', ')})`,
    labelNames: ['phase'],
    registers: [this.registry],
  });
  /** The same seconds, plain (the bench reads them). */
  readonly phases: Record<BatchPhase, number> = Object.fromEntries(BATCH_PHASES.map((p) => [p, 0])) as Record<
    BatchPhase,
    number
  >;

  /** Plain totals for the progress reporter (the Prometheus counters are async to read). */
  totalBlocks = 0;
  totalOps = 0;

  countIndexed(blocks: number, ops: number): void {
    this.totalBlocks += blocks;
    this.totalOps += ops;
    this.blocksIndexed.inc(blocks);
    this.opsIndexed.inc(ops);
  }

  addPhase(phase: BatchPhase, seconds: number): void {
    this.phases[phase] += seconds;
    this.phaseSeconds.inc({ phase }, seconds);
  }

  setIndexed(height: number): void {
    this.indexed = height;
    this.indexedHeight.set(height);
  }

  setNodeHeight(height: number): void {
    this.blocks = height;
    this.nodeHeight.set(height);
  }

  /** Share of the blocks from the first indexed level to the node head that are indexed. */
  get progress(): number {
    if (this.blocks < 0 || this.indexed < 0) return 0;
    const first = this.firstLevel ?? 0;
    const total = this.blocks - first + 1;
    return total <= 0 ? 1 : Math.min(1, Math.max(0, (this.indexed - first + 1) / total));
  }

  toJSON(): object {
    // Tenderbake makes a block final once two blocks are built on it.
    const finalized = Math.max(0, Math.min(this.indexed, this.blocks - 2));
    return {
      mode: this.mode,
      status: this.status,
      blocks: this.blocks,
      finalized,
      indexed: this.indexed,
      progress: Number(this.progress.toFixed(6)),
    };
  }
}
