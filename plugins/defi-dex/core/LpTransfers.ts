import type { HandlerRegistry, IndexContext } from '../../../framework';
import type { DexPoolKey, DexSink } from './DexAdapter';
import { poolAddress } from './DexRecorder';
import { fa12Transfer, fa12TransferType, fa2TransferType } from '../../../framework/defi';

/**
 * The `transfer`s of pools' FA1.2 LP token contracts as share moves between positions, for adapters
 * whose pools name their LP token in the storage (Plenty). The token is watched under two roles when
 * its pool is declared: `defi-dex:<adapter>:lp` for the group pattern and `…:lp:<pool>` to find the
 * pool again (the watch list is stored and rolled back with the blocks, so a restart keeps both).
 */
export class LpTransfers {
  private readonly role: string;

  constructor(adapter: string) {
    this.role = `defi-dex:${adapter}:lp`;
  }

  /** Watches `lp` as the LP token of `pool`; call it whenever the adapter meets the pool. */
  async follow(ctx: IndexContext, lp: string, pool: DexPoolKey): Promise<void> {
    if (ctx.watched(lp).includes(this.role)) return;
    await ctx.watch(lp, this.role);
    await ctx.watch(lp, `${this.role}:${poolAddress(pool)}`);
  }

  /**
   * Subscribes to the watched tokens' transfers. Register it after the pool subscriptions: the
   * dispatcher runs subscriptions in order, so a pool first met in a block has its token watched
   * before that block's transfers are matched.
   */
  register(r: HandlerRegistry, sink: DexSink): void {
    const prefix = `${this.role}:`;
    r.onOperationGroup([{ name: 'lp', destination: { role: this.role }, entrypoint: 'transfer' }], async (m, ctx) => {
      const step = m.steps.lp!;
      const t = fa12Transfer(step.op.parameters);
      const [contract, pairId] =
        step.roles
          .find((x) => x.startsWith(prefix))
          ?.slice(prefix.length)
          .split('_') ?? [];
      const pool = { contract, pairId: Number(pairId) };
      if (t && contract && (await sink.knows(ctx, pool)))
        await sink.transfer(
          ctx,
          pool,
          { kind: 'transfer', from: t.from, to: t.to, shares: t.value },
          { match: m, step },
        );
    });
  }
}

/**
 * Share moves of a pool that is its own LP token (QuipuSwap v1 and v2), from its decoded `transfer`
 * argument: FA1.2 `(from, to, value)` (token id 0) or FA2 `[{from_, txs: [{to_, token_id, amount}]}]`
 * (v2 keeps every pair's shares under token id = pair id).
 */
export function shareTransfers(v: unknown): Array<{ from: string; to: string; shares: bigint; tokenId: bigint }> {
  const fa12 = fa12TransferType.read(v);
  if (fa12) return [{ from: fa12.from, to: fa12.to, shares: fa12.value, tokenId: 0n }];
  return (fa2TransferType.read(v) ?? []).flatMap((b) =>
    b.txs.map((t) => ({ from: b.from_, to: t.to_, shares: t.amount, tokenId: t.token_id })),
  );
}
