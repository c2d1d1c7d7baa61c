import type { GroupMatch, HandlerRegistry, IndexContext, MatchedStep } from '../../../../framework';
import type { DexAction, DexAdapter, DexSink } from '../../core/DexAdapter';
import { LpTransfers } from '../../core/LpTransfers';
import { PoolCall } from '../../../../framework/defi';
import { ctezPool, decodeCtezCall } from './ctezPool';
import { declaration, ENTITY, supplyOf, type StablePool } from './pool';
import { decodeTokenPoolCall, tokenPool } from './tokenPool';
import { CTEZ_CALLS, CTEZ_SIGNATURE, PLENTY_STABLE_CTEZ, PLENTY_STABLE_TOKEN, TOKEN_POOL_CALLS } from './types';
import { plentyStableCtezCode, plentyStableTokenCode } from './types.gen';

/**
 * Code signatures: disjoint from each other and from the volatile pools (`Swap`, `AddLiquidity`, `RemoveLiquidity`).
 */
const TOKEN_POOL = { entrypoints: TOKEN_POOL_CALLS } as const;
const CTEZ_POOL = { entrypoints: CTEZ_SIGNATURE } as const;

/** Its place among the adapters (framework `discoverFolders`), kept from before discovery: records keep their order. */
export const order = 4;

/**
 * Plenty stable-swap ("flat curve") pools, entity `plenty_stable`: token/token pools (token1 = A,
 * token2 = B) and the ctez/tez pool (ctez = A, tez = B), recognized by their entrypoints at their
 * first call. The fee is ⌊W/lpFee⌋ of the curve's output; shares come from the LP token's
 * `mint`/`burn` the pool called. A ctez/tez swap opens with `tez_to_ctez`/`ctez_to_tez` and settles
 * in its `_callback` (after ctez's `get_target`): it is one trade, reported at the callback, whose
 * storage holds the reserves after it. Transfers of the LP token (`lqtAddress`) move shares between
 * positions.
 */
export const plentyStableAdapter: DexAdapter = {
  name: 'plenty-stable',
  entities: [ENTITY],
  storageSupply: {
    types: [PLENTY_STABLE_TOKEN.types, PLENTY_STABLE_CTEZ.types],
    read: (v) => {
      const pool = tokenPool(v) ?? ctezPool(v);
      return pool && supplyOf(pool);
    },
  },
  register(r: HandlerRegistry, sink: DexSink): void {
    const lp = new LpTransfers('plenty-stable');
    r.knownCode(PLENTY_STABLE_TOKEN);
    r.knownCode(PLENTY_STABLE_CTEZ);
    r.onOperationGroup([{ name: 'pool', destination: TOKEN_POOL, entrypoint: TOKEN_POOL_CALLS }], async (m, ctx) => {
      const step = m.steps.pool!;
      const [pool, c] = [step.decoded ? tokenPool(step.storage) : undefined, plentyStableTokenCode.call(step)];
      if (pool && c) await report(ctx, sink, lp, m, step, pool, decodeTokenPoolCall(new PoolCall(m, step), c, pool));
    });
    // One subscription per kind of pool, so a block's calls of a pool are reported in their order.
    r.onOperationGroup([{ name: 'pool', destination: CTEZ_POOL, entrypoint: CTEZ_CALLS }], async (m, ctx) => {
      const step = m.steps.pool!;
      const [pool, c] = [step.decoded ? ctezPool(step.storage) : undefined, plentyStableCtezCode.call(step)];
      if (pool && c) await report(ctx, sink, lp, m, step, pool, decodeCtezCall(m, step, c, pool));
    });
    lp.register(r, sink);
  },
};

/**
 * Declares the pool at its first call (and follows its LP token), then reports the action with the reserves after
 * `step`.
 */
async function report(
  ctx: IndexContext,
  sink: DexSink,
  lp: LpTransfers,
  m: GroupMatch,
  step: MatchedStep,
  pool: StablePool,
  action: DexAction | undefined,
): Promise<void> {
  const key = { contract: step.contract, pairId: 0 };
  const supply = supplyOf(pool);
  if (!(await sink.knows(ctx, key))) await sink.pool(ctx, declaration(step.contract, pool), supply, { match: m, step });
  await lp.follow(ctx, pool.lqtAddress, key);
  if (action) await sink.action(ctx, key, action, supply, { match: m, step });
}
