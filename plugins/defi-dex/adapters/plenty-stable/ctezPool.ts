import type { GroupMatch, MatchedStep, TypedCall } from '../../../../framework';
import type { DexAction, DexTradeAction } from '../../core/DexAdapter';
import { PoolCall } from '../../../../framework/defi';
import { outputFee, type StablePool } from './pool';
import { type PlentyStableCtezParameters, plentyStableCtezCode } from './types.gen';

/*
 * Why: the ctez/tez pool's calls, all read at the call that moves the reserves: add_liquidity,
 * remove_liquidity and the swaps' callbacks. A swap opens with `tez_to_ctez`/`ctez_to_tez` (which
 * only stores the trade and asks ctez's `get_target`) and settles in its `_callback`: one trade.
 */
type CtezPool = StablePool & { ctez: string };

/** The ctez/tez pool's storage (ctez = A, tez = B), or undefined when it is not one. */
export function ctezPool(v: unknown): CtezPool | undefined {
  const s = plentyStableCtezCode.storage(v);
  if (!s) return undefined;
  return {
    tokens: [{ standard: 'fa1.2', contract: s.ctezAddress }, { standard: 'tez' }],
    lqtAddress: s.lqtAddress,
    lqtTotal: s.lqtTotal,
    reserves: [s.ctezPool, s.tezPool],
    lpFee: s.lpFee,
    feeToVoters: s.state,
    ctez: s.ctezAddress,
  };
}

export function decodeCtezCall(
  m: GroupMatch,
  step: MatchedStep,
  c: TypedCall<PlentyStableCtezParameters>,
  pool: CtezPool,
): DexAction | undefined {
  const call = new PoolCall(m, step);
  const { sender, router } = call.parties();
  switch (c.entrypoint) {
    case 'add_liquidity':
      // Tez come with the call, ctez are pulled from the caller, shares minted to `owner`.
      return {
        kind: 'deposit',
        sender,
        receiver: c.args.owner,
        router,
        owner: c.args.owner,
        amounts: [call.tokens(pool.ctez, 0n, 'in'), step.amount],
        shares: call.shares(pool.lqtAddress),
      };
    case 'remove_liquidity': {
      // Both sides are paid to the caller.
      const caller = step.sender ?? sender;
      return {
        kind: 'withdraw',
        sender,
        receiver: call.receiver(caller),
        router,
        owner: sender,
        amounts: [call.tokens(pool.ctez, 0n, 'out'), call.tez((a) => a === caller)],
        shares: -call.shares(pool.lqtAddress),
      };
    }
    case 'tez_to_ctez_callback':
    case 'ctez_to_tez_callback':
      return settledSwap(m, step, c.entrypoint === 'tez_to_ctez_callback' ? 'tez_to_ctez' : 'ctez_to_tez', pool);
  }
  return undefined;
}

/** A swap at its callback: who, what was sent and the recipient from the opening call; what moved in both steps. */
function settledSwap(
  m: GroupMatch,
  settle: MatchedStep,
  entrypoint: 'tez_to_ctez' | 'ctez_to_tez',
  pool: CtezPool,
): DexTradeAction | undefined {
  const open = [...m.group]
    .reverse()
    .find(
      (o) =>
        o.opC === settle.op.opC &&
        o.opI < settle.op.opI &&
        o.receiver === settle.contract &&
        o.entrypoint === entrypoint,
    );
  if (!open) return undefined;
  const opened = new PoolCall(m, { op: open, contract: settle.contract, sender: open.sender });
  const settled = new PoolCall(m, settle);
  const opening = plentyStableCtezCode.decodeCall(open);
  if (opening?.entrypoint !== 'tez_to_ctez' && opening?.entrypoint !== 'ctez_to_tez') return undefined;
  const { recipient } = opening.args;
  const { sender, router } = opened.parties();
  const ctez = (dir: 'in' | 'out') => opened.tokens(pool.ctez, 0n, dir) + settled.tokens(pool.ctez, 0n, dir);
  const who = { kind: 'trade', sender, receiver: opened.receiver(recipient), router } as const;
  if (entrypoint === 'tez_to_ctez') {
    const amountOut = ctez('out');
    return { ...who, tokenIn: 1, tokenOut: 0, amountIn: open.volume, amountOut, fees: outputFee(amountOut, pool, 0) };
  }
  const amountOut = opened.tez((a) => a === recipient) + settled.tez((a) => a === recipient);
  return { ...who, tokenIn: 0, tokenOut: 1, amountIn: ctez('in'), amountOut, fees: outputFee(amountOut, pool, 1) };
}
