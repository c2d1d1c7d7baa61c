import { column, HandlerRegistry, PluginManifest, table, TzidxPlugin } from '../../../../framework';

/**
 * A test plugin for watched contracts: it claims every originated name registry by its entrypoints,
 * records the calls of claimed registries with their decoded name, and watches one contract by hand
 * in one chosen block (a pool a factory created, say) to record its calls from then on.
 */
@table('registry_calls', { kind: 'append', height_column: 'height' })
class RegistryCalls {
  @column({ type: 'uint64' }) row_id!: string;
  @column({ type: 'int64' }) height!: number;
  @column({ type: 'address' }) contract!: string;
  @column({ type: 'string' }) entrypoint!: string;
  /** The decoded `name` argument of a `set` call. */
  @column({ type: 'string', nullable: true }) name!: string | null;
}

@table('manual_calls', { kind: 'append', height_column: 'height' })
class ManualCalls {
  @column({ type: 'uint64' }) row_id!: string;
  @column({ type: 'int64' }) height!: number;
  @column({ type: 'address' }) contract!: string;
  @column({ type: 'int64' }) op_n!: number;
}

/** The block (by hash) in which the plugin watches `address` under the role `manual`. */
export const manualWatch = { blockHash: '', address: '' };

export const REGISTRY_ENTRYPOINTS = ['set', 'del', 'reset', 'clone'];

export class WatcherPlugin implements TzidxPlugin {
  static readonly manifest: PluginManifest = { name: 'watcher', tableClasses: [RegistryCalls, ManualCalls] };

  setup() {
    return { handlers: (r: HandlerRegistry) => this.handlers(r) };
  }
  private handlers(r: HandlerRegistry): void {
    r.claim('registry', { entrypoints: REGISTRY_ENTRYPOINTS });
    r.onBlock(async (block, ctx) => {
      if (block.hash === manualWatch.blockHash) await ctx.watch(manualWatch.address, 'manual');
    });
    r.onOperationGroup([{ name: 'call', destination: { role: 'registry' } }], (m, ctx) => {
      const call = m.steps.call!;
      const name = call.entrypoint === 'set' ? (call.parameters as { name: string }).name : null;
      ctx.append('registry_calls', {
        height: m.level,
        contract: call.contract,
        entrypoint: call.entrypoint ?? 'default',
        name,
      });
    });
    r.onOperationGroup([{ name: 'call', destination: { role: 'manual' } }], (m, ctx) => {
      for (const step of m.matched)
        ctx.append('manual_calls', { height: m.level, contract: step.contract, op_n: step.op.opN });
    });
  }
}
