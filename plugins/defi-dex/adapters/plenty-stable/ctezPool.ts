import type { GroupMatch, MatchedStep } from '../../../../framework';
import type { DexAction, DexLiquidityAction, DexTradeAction } from '../../core/DexAdapter';
import { PoolCall } from '../../core/PoolCall';
import { outputFee, type StablePool } from './pool';

/** The ctez/tez pool's swaps: each opens with a call and settles in its callback (after ctez's `get_target`). */
export const CTEZ_SWAPS = ['tez_to_ctez', 'ctez_to_tez'];
export const CTEZ_SETTLES = CTEZ_SWAPS.map((e) => `${e}_callback`);
export const CTEZ_LIQUIDITY = ['add_liquidity', 'remove_liquidity'];

interface CtezPoolStorage {
  ctezAddress: string;
  ctezPool: bigint;
  tezPool: bigint;
  lqtAddress: string;
  lqtTotal: bigint;
  lpFee: bigint;
  state: boolean;
}

/** The ctez/tez pool's storage (ctez = A, tez = B), or undefined when it is not one. */
export function ctezPool(v: unknown): (StablePool & { ctez: string }) | undefined {
  const s = v as Partial<CtezPoolStorage> | undefined;
  if (typeof s?.ctezPool !== 'bigint' || typeof s.tezPool !== 'bigint' || typeof s.lqtTotal !== 'bigint' || typeof s.lpFee !== 'bigint') return undefined;
  if (typeof s.ctezAddress !== 'string' || typeof s.lqtAddress !== 'string') return undefined;
  return {
    tokens: [{ standard: 'fa1.2', contract: s.ctezAddress }, { standard: 'tez' }],
    lqtAddress: s.lqtAddress,
    lqtTotal: s.lqtTotal,
    reserves: [s.ctezPool, s.tezPool],
    lpFee: s.lpFee,
    feeToVoters: s.state === true,
    ctez: s.ctezAddress,
  };
}

/** add_liquidity (tez sent with the call, ctez pulled from the caller) and remove_liquidity (both paid to the caller). */
export function decodeCtezLiquidity(call: PoolCall, step: MatchedStep, pool: NonNullable<ReturnType<typeof ctezPool>>): DexLiquidityAction | undefined {
  const { sender, router } = call.parties();
  const p = step.parameters as Record<string, unknown>;
  switch (step.entrypoint) {
    case 'add_liquidity':
      return { kind: 'deposit', sender, receiver: String(p.owner), router, owner: String(p.owner), amounts: [call.tokens(pool.ctez, 0n, 'in'), step.amount], shares: call.shares(pool.lqtAddress) };
    case 'remove_liquidity': {
      const caller = step.sender ?? sender;
      return { kind: 'withdraw', sender, receiver: call.receiver(caller), router, owner: sender, amounts: [call.tokens(pool.ctez, 0n, 'out'), call.tez((a) => a === caller)], shares: -call.shares(pool.lqtAddress) };
    }
  }
  return undefined;
}

/**
 * One swap from its opening call (who, what was sent, the recipient) and its callback (what the pool
 * paid, the storage after): reported once, at the callback, with the moves of both steps.
 */
export function decodeCtezSwap(m: GroupMatch, open: MatchedStep, settle: MatchedStep, pool: NonNullable<ReturnType<typeof ctezPool>>): DexAction | undefined {
  if (settle.contract !== open.contract || settle.entrypoint !== `${open.entrypoint}_callback`) return undefined;
  const opened = new PoolCall(m, open);
  const settled = new PoolCall(m, settle);
  const { sender, router } = opened.parties();
  const recipient = String((open.parameters as Record<string, unknown>).recipient);
  const ctez = (dir: 'in' | 'out') => opened.tokens(pool.ctez, 0n, dir) + settled.tokens(pool.ctez, 0n, dir);
  const base = { kind: 'trade', sender, receiver: opened.receiver(recipient), router } as const;
  let trade: DexTradeAction;
  if (open.entrypoint === 'tez_to_ctez') {
    const amountOut = ctez('out');
    trade = { ...base, tokenIn: 1, tokenOut: 0, amountIn: open.amount, amountOut, fees: outputFee(amountOut, pool, 0) };
  } else {
    const amountOut = opened.tez((a) => a === recipient) + settled.tez((a) => a === recipient);
    trade = { ...base, tokenIn: 0, tokenOut: 1, amountIn: ctez('in'), amountOut, fees: outputFee(amountOut, pool, 1) };
  }
  return trade;
}
