import { column, HandlerRegistry, NormalizedBlock, PluginManifest, table, TzidxPlugin } from '../../../../framework';

/**
 * A test plugin that exercises every write path of the indexer: an append table with an orphan flag,
 * an append table fed by an operation subscription, and a mutable table updated every block. Its
 * tables are declared with decorators, the way third-party plugins do it; the CLI loads it through
 * `plugin_paths` like any external plugin.
 */
@table('blocks_seen', { kind: 'append', height_column: 'height', orphan_column: 'orphan' })
class BlocksSeen {
  @column({ type: 'uint64' }) row_id!: string;
  @column({ type: 'int64' }) height!: number;
  @column({ type: 'hash(block)' }) hash!: string;
  @column({ type: 'int64' }) n_ops!: number;
  @column({ type: 'bool' }) orphan!: boolean;
  /** The block hash the node gives for this block's level through ctx.node (null without a node). */
  @column({ type: 'hash(block)', nullable: true }) node_hash!: string | null;
}

@table('transfers', { kind: 'append', height_column: 'height' })
class Transfers {
  @column({ type: 'uint64' }) row_id!: string;
  @column({ type: 'int64' }) height!: number;
  @column({ type: 'int64' }) op_n!: number;
  @column({ type: 'money' }) amount!: bigint;
  @column({ type: 'address', nullable: true }) sender!: string | null;
}

@table('op_types', { kind: 'mutable', height_column: 'last_height', indexes: [{ columns: ['type'], unique: true }] })
class OpTypes {
  @column({ type: 'uint64' }) row_id!: string;
  @column({ type: 'string' }) type!: string;
  @column({ type: 'int64' }) count!: bigint;
  @column({ type: 'int64' }) last_height!: number;
}

/** Throws once when indexing this level (tests of failed batches). */
export const trap = { level: -1 };

export function countTypes(blocks: readonly NormalizedBlock[]): Map<string, number> {
  const m = new Map<string, number>();
  for (const b of blocks) for (const op of b.operations) m.set(op.type, (m.get(op.type) ?? 0) + 1);
  return m;
}

export class ProbePlugin implements TzidxPlugin {
  static readonly manifest: PluginManifest = { name: 'probe', tableClasses: [BlocksSeen, Transfers, OpTypes] };

  setup() {
    return { handlers: (r: HandlerRegistry) => this.handlers(r) };
  }
  private handlers(r: HandlerRegistry): void {
    r.onBlock(async (block, ctx) => {
      if (block.level === trap.level) {
        trap.level = -1;
        throw new Error('trap');
      }
      const header = (await ctx.node('header')) as { hash?: string } | undefined;
      ctx.append('blocks_seen', {
        height: block.level,
        hash: block.hash,
        n_ops: block.operations.length,
        node_hash: header?.hash ?? null,
      });
    });
    r.onOperation({ types: ['transaction'] }, (op, ctx) => {
      ctx.append('transfers', { height: ctx.block.level, op_n: op.opN, amount: op.volume, sender: op.sender ?? null });
    });
    r.onBlock(async (block, ctx) => {
      const store = ctx.entities('op_types', 'type');
      const counts = countTypes([block]);
      await store.preload(counts.keys());
      for (const [type, n] of counts) {
        const e = await store.get(type);
        if (e) store.update(e, { count: (e.count as bigint) + BigInt(n), last_height: block.level });
        else store.insert({ type, count: BigInt(n), last_height: block.level });
      }
    });
  }
}
