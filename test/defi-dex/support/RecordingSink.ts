import type { IndexContext } from '../../../framework';
import type {
  DexAction,
  DexOrigin,
  DexPoolDecl,
  DexPoolKey,
  DexShareTransfer,
  DexSink,
  DexSupply,
} from '../../../plugins/defi-dex/core/DexAdapter';

export type SinkCall =
  | {
      readonly call: 'pool';
      readonly level: number;
      readonly decl: DexPoolDecl;
      readonly supply: DexSupply;
      readonly origin?: DexOrigin;
    }
  | {
      readonly call: 'action';
      readonly level: number;
      readonly pool: DexPoolKey;
      readonly action: DexAction;
      readonly supply: DexSupply;
      readonly origin: DexOrigin;
    }
  | { readonly call: 'adjust'; readonly level: number; readonly pool: DexPoolKey; readonly supply: DexSupply }
  | {
      readonly call: 'transfer';
      readonly level: number;
      readonly pool: DexPoolKey;
      readonly transfer: DexShareTransfer;
      readonly origin: DexOrigin;
    }
  | {
      readonly call: 'firstLiquidity';
      readonly level: number;
      readonly pool: DexPoolKey;
      readonly owner: string;
      readonly shares: bigint;
    };

/**
 * What an adapter reported, in order: adapter tests check the decoding (amounts against the storages
 * before/after) without the core's records. Pools are known once declared, as the core's sink does.
 */
export class RecordingSink implements DexSink {
  readonly calls: SinkCall[] = [];
  private readonly known = new Set<string>();
  /** Reserves as last reported per pool, as the core's sink answers `supply()`. */
  readonly supplies = new Map<string, DexSupply>();

  static key(p: DexPoolKey): string {
    return `${p.contract}_${p.pairId}`;
  }

  async pool(ctx: IndexContext, decl: DexPoolDecl, supply: DexSupply, origin?: DexOrigin): Promise<void> {
    this.known.add(RecordingSink.key(decl));
    this.supplies.set(RecordingSink.key(decl), supply);
    this.calls.push({ call: 'pool', level: ctx.block.level, decl, supply, origin });
  }

  async knows(_ctx: IndexContext, pool: DexPoolKey): Promise<boolean> {
    return this.known.has(RecordingSink.key(pool));
  }

  async action(
    ctx: IndexContext,
    pool: DexPoolKey,
    action: DexAction,
    supply: DexSupply,
    origin: DexOrigin,
  ): Promise<void> {
    if (!this.known.has(RecordingSink.key(pool)))
      throw new Error(`action on undeclared pool ${RecordingSink.key(pool)}`);
    this.supplies.set(RecordingSink.key(pool), supply);
    this.calls.push({ call: 'action', level: ctx.block.level, pool, action, supply, origin });
  }

  async supply(_ctx: IndexContext, pool: DexPoolKey): Promise<DexSupply | undefined> {
    return this.supplies.get(RecordingSink.key(pool));
  }

  async adjust(ctx: IndexContext, pool: DexPoolKey, supply: DexSupply): Promise<void> {
    this.supplies.set(RecordingSink.key(pool), supply);
    this.calls.push({ call: 'adjust', level: ctx.block.level, pool, supply });
  }

  async transfer(ctx: IndexContext, pool: DexPoolKey, transfer: DexShareTransfer, origin: DexOrigin): Promise<void> {
    this.calls.push({ call: 'transfer', level: ctx.block.level, pool, transfer, origin });
  }

  async firstLiquidity(ctx: IndexContext, pool: DexPoolKey, owner: string, shares: bigint): Promise<void> {
    this.calls.push({ call: 'firstLiquidity', level: ctx.block.level, pool, owner, shares });
  }

  actions<K extends DexAction['kind']>(kind?: K): Array<Extract<SinkCall, { call: 'action' }>> {
    return this.calls.filter(
      (c): c is Extract<SinkCall, { call: 'action' }> =>
        c.call === 'action' && (kind === undefined || c.action.kind === kind),
    );
  }
}
