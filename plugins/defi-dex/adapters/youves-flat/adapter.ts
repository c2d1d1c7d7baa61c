import type { HandlerRegistry, MatchedStep } from '../../../../framework';
import type { DexAction, DexAdapter, DexPoolDecl, DexSink, DexSupply, DexTokenRef, DexTradeAction } from '../../core/DexAdapter';
import { LpTransfers } from '../../core/LpTransfers';
import { type PaidAsset, type Payment, PoolCall } from '../../core/PoolCall';

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
  /** Where the contract sends its half of the fee (absent: none is sent out). */
  rewardRecipient?: string;
}

/** The fee ratio the pool pays of the curve's output: paid = ⌊numerator·W/denominator⌋. */
interface FeeRatio {
  readonly numerator: bigint;
  readonly denominator: bigint;
}

/**
 * Youves flat-curve pools (entity `youves_flat`): token/cash CFMMs on u = (x+y)⁸ − (x−y)⁸ over the
 * reserves times their multipliers, recognized by their entrypoints and storage at their first call.
 * Amounts come from what the call moved (the curve is never recomputed), reserves and `lqtTotal` from
 * the storage after it. A trade's output is what the pool paid `to`; the fee is split as the contract
 * pays it (`splitFee`). Shares are the LP token's (`lqtAddress`) `mintOrBurn`s by the pool; its
 * `transfer`s move them between positions.
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
const feesBps = (f: FeeRatio): string => hundredthsBps(((f.denominator - f.numerator) * 1_000_000n) / f.denominator);
/** Half the fee rate: the pool's and the reward recipient's share. */
const halfBps = (f: FeeRatio): string => hundredthsBps(((f.denominator - f.numerator) * 500_000n) / f.denominator);
const hundredthsBps = (hundredths: bigint): string => `${hundredths / 100n}.${String(hundredths % 100n).padStart(2, '0')}`;

function declaration(contract: string, s: FlatStorage): DexPoolDecl {
  return { contract, pairId: 0, entity: YOUVES_FLAT_ENTITY, tokens: [token(s), cash(s)], lp: { standard: 'fa1.2', contract: s.lqtAddress }, feesBps: feesBps(s.feeRatio) };
}

const supplyOf = (s: FlatStorage): DexSupply => ({ reserves: [s.tokenPool, s.cashPool], lpSupply: s.lqtTotal, feesBps: feesBps(s.feeRatio) });

function decode(call: PoolCall, step: MatchedStep, s: FlatStorage): DexAction | undefined {
  const { sender, router } = call.parties();
  const p = step.parameters as Record<string, unknown>;
  const tokenAsset: PaidAsset = { token: s.tokenAddress, tokenId: s.tokenId ?? 0n };
  const cashAsset: PaidAsset = typeof s.cashAddress === 'string' ? { token: s.cashAddress, tokenId: s.cashId ?? 0n } : 'tez';
  const tokens = (dir: 'in' | 'out') => call.tokens(s.tokenAddress, s.tokenId ?? 0n, dir);
  // Tez cash comes with the call and leaves as plain payments; token cash moves by transfers.
  const cashIn = () => (cashAsset === 'tez' ? step.amount : call.tokens(cashAsset.token, cashAsset.tokenId, 'in'));
  const paidTo = (to: string) => call.payouts(cashAsset).filter((m) => m.to === to).reduce((n, m) => n + m.amount, 0n);
  switch (step.entrypoint) {
    case 'cashToToken':
    case 'tokenToCash': {
      const buy = step.entrypoint === 'cashToToken';
      const to = String(p.to);
      const [tokenIn, tokenOut, asset] = buy ? [CASH, TOKEN, tokenAsset] : [TOKEN, CASH, cashAsset];
      const { amountOut, fees } = trade(call.payouts(asset), to, s, tokenOut);
      const amountIn = buy ? cashIn() : tokens('in');
      return { kind: 'trade', sender, receiver: call.receiver(to, asset), router, tokenIn, tokenOut, amountIn, amountOut, fees };
    }
    case 'addLiquidity':
      return { kind: 'deposit', sender, receiver: String(p.owner), router, owner: String(p.owner), amounts: [tokens('in'), cashIn()], shares: call.shares(s.lqtAddress) };
    case 'removeLiquidity': {
      // The caller's shares burn; tokens and cash go to `to`.
      const to = String(p.to);
      return { kind: 'withdraw', sender, receiver: to, router, owner: sender, amounts: [tokens('out'), paidTo(to)], shares: -call.shares(s.lqtAddress) };
    }
  }
  return undefined;
}

/**
 * A trade's output and fees from the pool's payouts of the output token, which the contract makes in
 * this order (youves-com/youves-smart-contract contracts/swap/fa12_flat_cfmm.mligo `cash_to_token`,
 * `token_to_cash` at 750af577d178a5778d5b49ce9127a94913c75e23): `paid` to `to`, then the reward to
 * `rewardRecipient`.
 */
function trade(payouts: readonly Payment[], to: string, s: FlatStorage, token: number): Pick<DexTradeAction, 'amountOut' | 'fees'> {
  const toUser = payouts.findIndex((m) => m.to === to);
  const paid = toUser < 0 ? 0n : payouts[toUser].amount;
  const reward = payouts.filter((m, i) => i > toUser && m.to === s.rewardRecipient).reduce((n, m) => n + m.amount, 0n);
  const half = halfBps(s.feeRatio);
  const lp = { amount: keptFee(paid, reward, s.feeRatio), bps: half, token };
  return { amountOut: paid, fees: s.rewardRecipient === undefined ? { lp } : { lp, incentive: { amount: reward, bps: half, token } } };
}

/**
 * The fee part the pool keeps. The contract cuts its fee from the curve's output W: the user gets
 * paid = ⌊numerator·W/denominator⌋, `rewardRecipient` ⌊(W − paid)/2⌋ (the reward, read from what
 * moved), the pool keeps the rest: the reward, or one more when W − paid is odd. W is the smallest of
 * paid + 2·reward and paid + 2·reward + 1 that pays `paid` at the fee ratio: exact, or one raw unit
 * under when both do.
 */
export function keptFee(paid: bigint, reward: bigint, fee: FeeRatio): bigint {
  const pays = (w: bigint) => (fee.numerator * w) / fee.denominator === paid;
  return !pays(paid + 2n * reward) && pays(paid + 2n * reward + 1n) ? reward + 1n : reward;
}
