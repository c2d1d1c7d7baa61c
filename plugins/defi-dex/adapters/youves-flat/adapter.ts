import type { HandlerRegistry, MatchedStep } from '../../../../framework';
import type { DexAction, DexAdapter, DexPoolDecl, DexSink, DexSupply, DexTokenRef, DexTradeAction } from '../../core/DexAdapter';
import { LpTransfers } from '../../core/LpTransfers';
import { PoolCall } from '../../core/PoolCall';
import { flatCurveGross, type FeeRatio, type FlatSides } from './curve';

export const YOUVES_FLAT_ENTITY = 'youves_flat';
const CALLS = ['cashToToken', 'tokenToCash', 'addLiquidity', 'removeLiquidity'];
/** The flat CFMMs' code by its entrypoints; the storage (multipliers, feeRatio) sets them apart from ctez's tez/ctez CFMM. */
const SIGNATURE = { entrypoints: CALLS } as const;
/** Pool order: the token is A, cash B (the quote, as tez in the tez pools). */
const [TOKEN, CASH] = [0, 1];

/** A flat CFMM's storage as its script names it. Cash is tez without `cashAddress`, FA2 with `cashId`; the token is FA2 with `tokenId`. */
interface FlatStorage {
  cashPool: bigint;
  tokenPool: bigint;
  lqtTotal: bigint;
  lqtAddress: string;
  cashAddress?: string;
  cashId?: bigint;
  tokenAddress: string;
  tokenId?: bigint;
  cashMultiplier: bigint;
  tokenMultiplier: bigint;
  feeRatio: FeeRatio;
}

/**
 * Youves flat-curve pools (entity `youves_flat`): token/cash CFMMs on u = (x+y)⁸ − (x−y)⁸ over the
 * reserves times their multipliers, recognized by their entrypoints and storage at their first call.
 * Amounts come from what the call moved, reserves and `lqtTotal` from the storage after it. The fee
 * is the part of the curve's output the pool keeps (out = W·numerator/denominator); W is recomputed
 * on the reserves before the trade (the storage after it with the moves undone, `curve.ts`). Shares
 * are the LP token's (`lqtAddress`) `mintOrBurn`s by the pool; its `transfer`s move them between
 * positions.
 */
export const youvesFlatAdapter: DexAdapter = {
  name: 'youves-flat',
  entities: [YOUVES_FLAT_ENTITY],
  register(r: HandlerRegistry, sink: DexSink): void {
    const lp = new LpTransfers('youves-flat');
    r.onOperationGroup([{ name: 'pool', destination: SIGNATURE, entrypoint: CALLS }], async (m, ctx) => {
      const step = m.steps.pool!;
      const s = step.decoded ? poolStorage(step.storage) : undefined;
      if (!s) return;
      const key = { contract: step.contract, pairId: 0 };
      if (!(await sink.knows(ctx, key))) await sink.pool(ctx, declaration(step.contract, s), supplyOf(s), { match: m, step });
      await lp.follow(ctx, s.lqtAddress, key);
      const action = decode(new PoolCall(m, step), step, s);
      if (action) await sink.action(ctx, key, action, supplyOf(s), { match: m, step });
    });
    lp.register(r, sink);
  },
};

function poolStorage(v: unknown): FlatStorage | undefined {
  const s = v as Partial<FlatStorage> | undefined;
  const ints = [s?.cashPool, s?.tokenPool, s?.lqtTotal, s?.cashMultiplier, s?.tokenMultiplier, s?.feeRatio?.numerator, s?.feeRatio?.denominator];
  if (!ints.every((i) => typeof i === 'bigint') || typeof s?.lqtAddress !== 'string' || typeof s.tokenAddress !== 'string') return undefined;
  return s.feeRatio!.denominator > 0n && s.cashMultiplier! > 0n && s.tokenMultiplier! > 0n ? (s as FlatStorage) : undefined;
}

const token = (s: FlatStorage): DexTokenRef => (typeof s.tokenId === 'bigint' ? { standard: 'fa2', contract: s.tokenAddress, tokenId: s.tokenId } : { standard: 'fa1.2', contract: s.tokenAddress });

function cash(s: FlatStorage): DexTokenRef {
  if (typeof s.cashAddress !== 'string') return { standard: 'tez' };
  return typeof s.cashId === 'bigint' ? { standard: 'fa2', contract: s.cashAddress, tokenId: s.cashId } : { standard: 'fa1.2', contract: s.cashAddress };
}

/** The fee rate in basis points with two decimals: (1 − numerator/denominator)·10000. */
function feesBps(f: FeeRatio): string {
  const hundredths = ((f.denominator - f.numerator) * 1_000_000n) / f.denominator;
  return `${hundredths / 100n}.${String(hundredths % 100n).padStart(2, '0')}`;
}

function declaration(contract: string, s: FlatStorage): DexPoolDecl {
  return { contract, pairId: 0, entity: YOUVES_FLAT_ENTITY, tokens: [token(s), cash(s)], lp: { standard: 'fa1.2', contract: s.lqtAddress }, feesBps: feesBps(s.feeRatio) };
}

const supplyOf = (s: FlatStorage): DexSupply => ({ reserves: [s.tokenPool, s.cashPool], lpSupply: s.lqtTotal, feesBps: feesBps(s.feeRatio) });

function decode(call: PoolCall, step: MatchedStep, s: FlatStorage): DexAction | undefined {
  const { sender, router } = call.parties();
  const p = step.parameters as Record<string, unknown>;
  const tokens = (dir: 'in' | 'out') => call.tokens(s.tokenAddress, s.tokenId ?? 0n, dir);
  // Tez cash comes with the call and leaves as plain payments; token cash moves by transfers.
  const cashIn = () => (typeof s.cashAddress === 'string' ? call.tokens(s.cashAddress, s.cashId ?? 0n, 'in') : step.amount);
  const cashOut = (to: string) => (typeof s.cashAddress === 'string' ? call.tokens(s.cashAddress, s.cashId ?? 0n, 'out') : call.tez((a) => a === to));
  switch (step.entrypoint) {
    case 'cashToToken': {
      const [amountIn, amountOut] = [cashIn(), tokens('out')];
      const sides = { inPool: s.cashPool - amountIn, outPool: s.tokenPool + amountOut, inMultiplier: s.cashMultiplier, outMultiplier: s.tokenMultiplier };
      return { kind: 'trade', sender, receiver: String(p.to), router, tokenIn: CASH, tokenOut: TOKEN, amountIn, amountOut, fees: keptFee(sides, amountIn, amountOut, s.feeRatio, TOKEN) };
    }
    case 'tokenToCash': {
      const to = String(p.to);
      const [amountIn, amountOut] = [tokens('in'), cashOut(to)];
      const sides = { inPool: s.tokenPool - amountIn, outPool: s.cashPool + amountOut, inMultiplier: s.tokenMultiplier, outMultiplier: s.cashMultiplier };
      return { kind: 'trade', sender, receiver: to, router, tokenIn: TOKEN, tokenOut: CASH, amountIn, amountOut, fees: keptFee(sides, amountIn, amountOut, s.feeRatio, CASH) };
    }
    case 'addLiquidity':
      return { kind: 'deposit', sender, receiver: String(p.owner), router, owner: String(p.owner), amounts: [tokens('in'), cashIn()], shares: call.shares(s.lqtAddress) };
    case 'removeLiquidity': {
      // The caller's shares burn; the cash goes to `to`, the tokens to the caller.
      const to = String(p.to);
      return { kind: 'withdraw', sender, receiver: to, router, owner: sender, amounts: [tokens('out'), cashOut(to)], shares: -call.shares(s.lqtAddress) };
    }
  }
  return undefined;
}

/** The curve's output the pool kept (W − paid), as an LP fee in the output token; none when the curve disagrees. */
function keptFee(sides: FlatSides, amountIn: bigint, amountOut: bigint, fee: FeeRatio, tokenOut: number): DexTradeAction['fees'] {
  const gross = flatCurveGross(sides, amountIn);
  return gross >= amountOut ? { lp: { amount: gross - amountOut, bps: feesBps(fee), token: tokenOut } } : {};
}
