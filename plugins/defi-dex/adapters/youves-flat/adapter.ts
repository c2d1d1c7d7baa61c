import type { HandlerRegistry, MatchedStep } from '../../../../framework';
import type { DexAction, DexAdapter, DexPoolDecl, DexSink, DexSupply, DexTokenRef } from '../../core/DexAdapter';
import type { DexTradeAction } from '../../core/DexAdapter';
import { LpTransfers } from '../../core/LpTransfers';
import { type PaidAsset, type Payment, PoolCall } from '../../../../framework/defi';
import {
  YOUVES_FLAT_CALLS as CALLS,
  YOUVES_FLAT_FA12_CASH,
  YOUVES_FLAT_FA2_CASH,
  YOUVES_FLAT_NO_UPDATES,
} from './types';

export const YOUVES_FLAT_ENTITY = 'youves_flat';
/** The shipped versions (`./types.ts`): a pool is read at its first call with no node. */
const VERSIONS = [YOUVES_FLAT_FA2_CASH, YOUVES_FLAT_FA12_CASH, YOUVES_FLAT_NO_UPDATES];
/** The flat CFMMs' code by its entrypoints; the storage (multipliers, feeRatio) sets them apart from ctez's CFMM. */
const SIGNATURE = { entrypoints: CALLS } as const;
/** Pool order: the token is A, cash B (the quote, as tez in the tez pools). */
const [TOKEN, CASH] = [0, 1];

/** A flat CFMM's storage: cash is tez without `cashAddress`, FA2 with `cashId`; the token FA2 with `tokenId`. */
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
  /** Where the contract sends its half of the fee. */
  rewardRecipient: string;
}

/** The fee ratio the pool pays of the curve's output: paid = ⌊numerator·W/denominator⌋. */
interface FeeRatio {
  readonly numerator: bigint;
  readonly denominator: bigint;
}

/** Its place among the adapters (framework `discoverFolders`), kept from before discovery: records keep their order. */
export const order = 8;

/**
 * Youves flat-curve pools (entity `youves_flat`): token/cash CFMMs on u = (x+y)⁸ − (x−y)⁸ over the
 * reserves times their multipliers, recognized by their entrypoints and storage at their first call.
 * Amounts come from what the call moved (the curve is never recomputed), reserves and `lqtTotal` from
 * the storage after it. A trade's output is what the pool paid `to`; the fee is split as the contract
 * pays it (`trade`, `keptFee`). Shares are the LP token's (`lqtAddress`) `mintOrBurn`s by the pool; its
 * `transfer`s move them between positions.
 */
export const youvesFlatAdapter: DexAdapter = {
  name: 'youves-flat',
  entities: [YOUVES_FLAT_ENTITY],
  storageSupply: {
    types: VERSIONS.map((v) => v.types),
    read: (v) => {
      const s = poolStorage(v);
      return s && supplyOf(s);
    },
  },
  register(r: HandlerRegistry, sink: DexSink): void {
    for (const v of VERSIONS) r.knownCode(v);
    const lp = new LpTransfers('youves-flat');
    r.onOperationGroup([{ name: 'pool', destination: SIGNATURE, entrypoint: CALLS }], async (m, ctx) => {
      const step = m.steps.pool!;
      const s = step.decoded ? poolStorage(step.storage) : undefined;
      if (!s) return;
      const key = { contract: step.contract, pairId: 0 };
      const origin = { match: m, step };
      if (!(await sink.knows(ctx, key))) await sink.pool(ctx, declaration(step.contract, s), supplyOf(s), origin);
      await lp.follow(ctx, s.lqtAddress, key);
      const action = decode(new PoolCall(m, step), step, s);
      if (action) await sink.action(ctx, key, action, supplyOf(s), origin);
    });
    lp.register(r, sink);
  },
};

function poolStorage(v: unknown): FlatStorage | undefined {
  const s = v as Partial<FlatStorage> | undefined;
  const ints = [s?.cashPool, s?.tokenPool, s?.lqtTotal, s?.cashMultiplier, s?.tokenMultiplier, s?.feeRatio?.numerator];
  if (![...ints, s?.feeRatio?.denominator].every((i) => typeof i === 'bigint')) return undefined;
  if (![s?.lqtAddress, s?.tokenAddress, s?.rewardRecipient].every((a) => typeof a === 'string')) return undefined;
  const f = s as FlatStorage;
  return f.feeRatio.denominator > 0n && f.cashMultiplier > 0n && f.tokenMultiplier > 0n ? f : undefined;
}

const fa = (contract: string, tokenId: bigint | undefined): DexTokenRef =>
  typeof tokenId === 'bigint' ? { standard: 'fa2', contract, tokenId } : { standard: 'fa1.2', contract };
const token = (s: FlatStorage): DexTokenRef => fa(s.tokenAddress, s.tokenId);
const cash = (s: FlatStorage): DexTokenRef =>
  typeof s.cashAddress === 'string' ? fa(s.cashAddress, s.cashId) : { standard: 'tez' };

/** The fee rate in basis points with two decimals: (1 − numerator/denominator)·10000. */
const feesBps = (f: FeeRatio): string => hundredthsBps(((f.denominator - f.numerator) * 1_000_000n) / f.denominator);
/** Half the fee rate: the pool's and the reward recipient's share. */
const halfBps = (f: FeeRatio): string => hundredthsBps(((f.denominator - f.numerator) * 500_000n) / f.denominator);
const hundredthsBps = (n: bigint): string => `${n / 100n}.${String(n % 100n).padStart(2, '0')}`;

function declaration(contract: string, s: FlatStorage): DexPoolDecl {
  const lp: DexTokenRef = { standard: 'fa1.2', contract: s.lqtAddress };
  const tokens = [token(s), cash(s)];
  return { contract, pairId: 0, entity: YOUVES_FLAT_ENTITY, tokens, lp, feesBps: feesBps(s.feeRatio) };
}

const supplyOf = (s: FlatStorage): DexSupply => ({
  reserves: [s.tokenPool, s.cashPool],
  lpSupply: s.lqtTotal,
  feesBps: feesBps(s.feeRatio),
});

function decode(call: PoolCall, step: MatchedStep, s: FlatStorage): DexAction | undefined {
  const { sender, router } = call.parties();
  const p = step.parameters as Record<string, unknown>;
  const tokenAsset: PaidAsset = { token: s.tokenAddress, tokenId: s.tokenId ?? 0n };
  const cashToken = typeof s.cashAddress === 'string' ? s.cashAddress : undefined;
  const cashAsset: PaidAsset = cashToken ? { token: cashToken, tokenId: s.cashId ?? 0n } : 'tez';
  const tokens = (dir: 'in' | 'out') => call.tokens(s.tokenAddress, s.tokenId ?? 0n, dir);
  // Tez cash comes with the call and leaves as plain payments; token cash moves by transfers.
  const cashIn = () => (cashAsset === 'tez' ? step.amount : call.tokens(cashAsset.token, cashAsset.tokenId, 'in'));
  const paidTo = (to: string) => sum(call.payouts(cashAsset).filter((m) => m.to === to));
  switch (step.entrypoint) {
    case 'cashToToken':
    case 'tokenToCash': {
      const buy = step.entrypoint === 'cashToToken';
      const to = String(p.to);
      const [tokenIn, tokenOut, asset] = buy ? [CASH, TOKEN, tokenAsset] : [TOKEN, CASH, cashAsset];
      const { amountOut, fees } = trade(call.payouts(asset), to, s, tokenOut);
      const amountIn = buy ? cashIn() : tokens('in');
      const receiver = call.receiver(to, asset);
      return { kind: 'trade', sender, receiver, router, tokenIn, tokenOut, amountIn, amountOut, fees };
    }
    case 'addLiquidity': {
      const [owner, amounts, shares] = [String(p.owner), [tokens('in'), cashIn()], call.shares(s.lqtAddress)];
      return { kind: 'deposit', sender, receiver: owner, router, owner, amounts, shares };
    }
    case 'removeLiquidity': {
      // The caller's shares burn; tokens and cash go to `to`.
      const to = String(p.to);
      const [amounts, shares] = [[tokens('out'), paidTo(to)], -call.shares(s.lqtAddress)];
      return { kind: 'withdraw', sender, receiver: to, router, owner: sender, amounts, shares };
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
function trade(payouts: readonly Payment[], to: string, s: FlatStorage, token: number): TradeOutput {
  const toUser = payouts.findIndex((m) => m.to === to);
  const paid = toUser < 0 ? 0n : payouts[toUser].amount;
  const reward = sum(payouts.filter((m, i) => i > toUser && m.to === s.rewardRecipient));
  const bps = halfBps(s.feeRatio);
  const lp = { amount: keptFee(paid, reward, s.feeRatio), bps, token };
  return { amountOut: paid, fees: { lp, incentive: { amount: reward, bps, token } } };
}

type TradeOutput = Pick<DexTradeAction, 'amountOut' | 'fees'>;
const sum = (payments: readonly Payment[]): bigint => payments.reduce((n, m) => n + m.amount, 0n);

/**
 * The fee part the pool keeps. The contract cuts its fee from the curve's output W: the user gets
 * paid = ⌊numerator·W/denominator⌋, `rewardRecipient` ⌊(W − paid)/2⌋ (the reward, read from what
 * moved), the pool keeps the rest: the reward, or one more when W − paid is odd. W is the smallest of
 * paid + 2·reward and paid + 2·reward + 1 that pays `paid` at the fee ratio: exact, or one raw unit
 * under when both do.
 */
function keptFee(paid: bigint, reward: bigint, fee: FeeRatio): bigint {
  const pays = (w: bigint) => (fee.numerator * w) / fee.denominator === paid;
  return !pays(paid + 2n * reward) && pays(paid + 2n * reward + 1n) ? reward + 1n : reward;
}
