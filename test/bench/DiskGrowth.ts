import { PluginClass } from '../../framework/plugins/Plugin';
import { SandboxChain } from '../../framework/sandbox';
import { TableMaintenance } from '../../framework/storage/TableMaintenance';
import { silentLogger } from '../../framework/util/Logger';
import { indexSandbox } from '../support/IndexHarness';
import { startTestInstance, TestInstance } from '../support/TestInstance';
import { BOUNDED, diskSnapshot, DiskSnapshot, mb, TableSize } from './DiskUse';
import { projectMainnetDisk, TZINDEX_2023 } from './MainnetProjection';
import { BenchResult, seconds } from './measure';
import { RecordedNode } from './RecordedNode';

/** The disk budget at the margin: what each further operation may add as the chain grows. */
const BUDGET = 300;

/** The operations indexed in the second half, and where the halves meet. */
interface Span {
  blocks: number;
  ops: number;
  allOps: number;
  half: number;
}

/**
 * Disk as the chain grows, which the all-in figure of a short run hides (empty pages of new tables,
 * the bounded journal and stream, catalog rows): one instance indexes the first half of the blocks,
 * the indexer's own maintenance round runs (TableMaintenance: the VACUUM and ANALYZE it runs where no
 * autovacuum does, with autovacuum's thresholds) and the sizes are read; then the second half, the
 * same round, the sizes again. The difference over the operations of the second half is the marginal
 * cost per operation, per table and per index. Also the run's wall time (untimed elsewhere: the
 * sandbox renders each answer here, and the node records them for the timed runs).
 */
export async function diskGrowth(
  plugins: PluginClass[],
  chain: SandboxChain,
  node: RecordedNode,
  opsUpTo: (level: number) => number,
): Promise<{ seconds: number; results: BenchResult[] }> {
  const t = await startTestInstance({ plugins });
  try {
    const half = Math.floor(chain.headLevel / 2);
    const t0 = process.hrtime.bigint();
    await indexSandbox(t, chain, { toLevel: half }, node);
    let live = seconds(t0);
    const first = await cleanSnapshot(t);
    const t1 = process.hrtime.bigint();
    await indexSandbox(t, chain, {}, node);
    live += seconds(t1);
    const last = await cleanSnapshot(t);
    const end = chain.headLevel;
    const span = { blocks: end - half, ops: opsUpTo(end) - opsUpTo(half), allOps: opsUpTo(end), half };
    return { seconds: live, results: report(first, last, span) };
  } finally {
    await t.close();
  }
}

/** Sizes after the indexer's maintenance, once the server's statistics counted the last batch. */
async function cleanSnapshot(t: TestInstance): Promise<DiskSnapshot> {
  // Other sessions hand their counters to the statistics within a second of going idle.
  await new Promise((r) => setTimeout(r, 1500));
  await new TableMaintenance(t.app.catalog, t.app.db.kind, silentLogger, 0).round(t.app.db.writer);
  return diskSnapshot(t.app.config.databaseUrl!);
}

const total = (s?: TableSize) => (s ? s.heap + s.indexes + s.other : 0);

function report(first: DiskSnapshot, last: DiskSnapshot, span: Span): BenchResult[] {
  // The journal and the stream's events stop growing at their bounds (the journal holds blocks near
  // the head only, so this run's first half has none): the margin of a long run leaves them out.
  const growing = [...last.tables]
    .filter(([name]) => !BOUNDED.has(name))
    .map(([name, s]) => {
      const was = first.tables.get(name);
      const heap = s.heap - (was?.heap ?? 0);
      const indexes = s.indexes - (was?.indexes ?? 0);
      return { name, s, heap, indexes, bytes: total(s) - total(was), rows: s.rows - (was?.rows ?? 0) };
    });
  const sum = (gs: typeof growing) => gs.reduce((n, g) => n + g.bytes, 0);
  const marginal = sum(growing) / span.ops;
  // A table that gained exactly one row per block grows with the chain's blocks, the rest with operations.
  const perBlock = sum(growing.filter((g) => g.rows === span.blocks)) / span.blocks;
  const perOp = sum(growing.filter((g) => g.rows !== span.blocks)) / span.ops;
  const projection = projectMainnetDisk(perBlock, perOp);
  const per = (bytes: number) => (bytes / span.ops).toFixed(1);
  const tables = growing
    .filter((g) => g.bytes !== 0)
    .sort((a, b) => b.bytes - a.bytes)
    .map((g) => `${g.name} ${per(g.bytes)} (heap ${per(g.heap)}, indexes ${per(g.indexes)}, +${g.rows} rows)`);
  const indexes = [...last.indexes]
    .filter(([, ix]) => !BOUNDED.has(ix.table))
    .map(([name, ix]) => ({ name, bytes: ix.bytes - (first.indexes.get(name)?.bytes ?? 0), size: ix.bytes }))
    .filter((ix) => ix.bytes !== 0)
    .sort((a, b) => b.bytes - a.bytes)
    .map((ix) => `${ix.name} ${per(ix.bytes)} (${mb(ix.size)})`);
  const between = `blocks ${span.half + 1}..${span.half + span.blocks}, ${span.ops} operations`;
  const budget = (value: number) => [{ target: `<= ${BUDGET} bytes/op at the margin`, met: value <= BUDGET }];
  const bytesPerOp = (value: number) => ({ value, unit: 'bytes/op' });
  const tzindex = TZINDEX_2023.bytes / 1e9;
  const gb = (bytes: number) => `${(bytes / 1e9).toFixed(0)} GB`;
  return [
    {
      name:
        `disk: marginal bytes per operation (${mb(sum(growing))} more over ${between}, after the indexer's ` +
        'maintenance; the bounded journal and stream left out)',
      seconds: 0,
      figure: bytesPerOp(marginal),
      checks: budget(marginal),
    },
    {
      name:
        `disk: all-in at ${span.half + span.blocks} blocks (${mb(last.bytes)} over ${span.allOps} operations, ` +
        `${mb(last.bounded)} of it the bounded journal and stream)`,
      seconds: 0,
      figure: bytesPerOp(last.bytes / span.allOps),
      checks: budget(last.bytes / span.allOps),
    },
    {
      name: `disk: marginal bytes per operation by table (heap, indexes): ${tables.join('; ')}`,
      seconds: 0,
      figure: bytesPerOp(marginal),
    },
    {
      name: `disk: marginal bytes per operation by index: ${indexes.join('; ')}`,
      seconds: 0,
      figure: { value: growing.reduce((n, g) => n + g.indexes, 0) / span.ops, unit: 'bytes/op in indexes' },
    },
    {
      name:
        `projection: full mainnet disk at ${Math.round(perBlock)} bytes per block (tables of one row per block) + ` +
        `${perOp.toFixed(0)} per operation: ${gb(projection.bytes)} (${projection.eras}); ` +
        `before Oxford (2024) ${gb(projection.before2024)} beside tzindex's ${tzindex} GB (2023)`,
      seconds: 0,
      figure: { value: projection.bytes / 1e9, unit: 'GB' },
      checks: [
        ...budget(marginal),
        { target: `<= tzindex's ${tzindex} GB before Oxford`, met: projection.before2024 <= TZINDEX_2023.bytes },
      ],
    },
  ];
}
