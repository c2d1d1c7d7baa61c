import type { HandlerRegistry, MatchedStep } from '../../../../framework';
import type { DexAction, DexAdapter, DexPoolDecl, DexSink, DexSupply } from '../../core/DexAdapter';
import { inputFee } from '../../core/InputFee';
import { PoolCall } from '../../core/PoolCall';
import { dexterMinted } from './minted';

/** Calls that move the reserves: trades, liquidity, tez sent to `default` (baker rewards) and the token balance sync. */
const CALLS = ['xtzToToken', 'tokenToXtz', 'tokenToToken', 'addLiquidity', 'removeLiquidity', 'default', 'updateTokenPoolInternal'];
/**
 * Dexter v1's code by its entrypoints: the Liquidity Baking CPMM, a Dexter fork, has neither `approve`
 * nor `updateTokenPoolInternal` (and keeps an `lqtAddress` in its storage), so it stays with `lb`.
 */
const SIGNATURE = { entrypoints: ['xtzToToken', 'tokenToXtz', 'tokenToToken', 'addLiquidity', 'removeLiquidity', 'approve', 'updateTokenPoolInternal'] } as const;
/** Pool order as the storage lists the reserves (and as the LB fork): the token is A, tez B. */
const [TOKEN, TEZ] = [0, 1];
const FEE_BPS = 30n;

/** Dexter v1's storage as its script names it (type annotations). */
interface DexterStorage {
  accounts: number;
  lqtTotal: bigint;
  tokenAddress: string;
  tokenPool: bigint;
  xtzPool: bigint;
}

/**
 * Dexter v1 tez/FA1.2 pools (entity `dexter`), recognized by their entrypoints at their first call:
 * 0.3% of the input stays in the pool. Amounts come from what the call moved (tez sent with it, the
 * token transfers and tez payments the pool emitted), reserves and `lqtTotal` from the storage after
 * it. Shares live in the pool's `accounts` big map, which has `approve` but no `transfer`: shares never
 * move between owners outside liquidity calls, so the declaration has no LP token (`lp: null`).
 */
export const dexterAdapter: DexAdapter = {
  name: 'dexter',
  entities: ['dexter'],
  register(r: HandlerRegistry, sink: DexSink): void {
    r.onOperationGroup([{ name: 'pool', destination: SIGNATURE, entrypoint: CALLS }], async (m, ctx) => {
      const step = m.steps.pool!;
      const s = poolStorage(step.storage);
      if (!step.decoded || !s) return;
      const key = { contract: step.contract, pairId: 0 };
      const before = await sink.supply(ctx, key);
      if (!before) await sink.pool(ctx, declaration(step.contract, s), supplyOf(s), { match: m, step });
      const action = decode(new PoolCall(m, step), step, s, before);
      if (action) await sink.action(ctx, key, action, supplyOf(s), { match: m, step });
    });
  },
};

function poolStorage(v: unknown): DexterStorage | undefined {
  const s = v as Partial<DexterStorage & { lqtAddress: unknown }> | undefined;
  const ok = typeof s?.accounts === 'number' && typeof s.lqtTotal === 'bigint' && typeof s.tokenPool === 'bigint' && typeof s.xtzPool === 'bigint' && typeof s.tokenAddress === 'string';
  return ok && s.lqtAddress === undefined ? (s as DexterStorage) : undefined;
}

function declaration(contract: string, s: DexterStorage): DexPoolDecl {
  return { contract, pairId: 0, entity: 'dexter', tokens: [{ standard: 'fa1.2', contract: s.tokenAddress }, { standard: 'tez' }], lp: null, feesBps: String(FEE_BPS) };
}

const supplyOf = (s: DexterStorage): DexSupply => ({ reserves: [s.tokenPool, s.xtzPool], lpSupply: s.lqtTotal });

function decode(call: PoolCall, step: MatchedStep, s: DexterStorage, before: DexSupply | undefined): DexAction | undefined {
  const { sender, router } = call.parties();
  const p = step.parameters as Record<string, unknown>;
  const tokens = (dir: 'in' | 'out') => call.tokens(s.tokenAddress, 0n, dir);
  // A plain tez transfer to the pool is a call of `default` without an entrypoint.
  switch (step.entrypoint ?? 'default') {
    case 'xtzToToken':
      return { kind: 'trade', sender, receiver: String(p.to), router, tokenIn: TEZ, tokenOut: TOKEN, amountIn: step.amount, amountOut: tokens('out'), fees: { lp: inputFee(step.amount, FEE_BPS, TEZ) } };
    case 'tokenToXtz':
    case 'tokenToToken': {
      // tokenToToken buys tez here and spends it on the output pool's xtzToToken, which that pool reports as its own trade.
      const hop = step.entrypoint === 'tokenToToken';
      const receiver = String(hop ? p.outputDexterContract : p.to);
      const amountIn = tokens('in');
      const amountOut = hop ? call.tezWith(receiver, 'xtzToToken') : call.tez((a) => a === receiver);
      return { kind: 'trade', sender, receiver, router, tokenIn: TOKEN, tokenOut: TEZ, amountIn, amountOut, fees: { lp: inputFee(amountIn, FEE_BPS, TOKEN) } };
    }
    case 'addLiquidity': {
      const shares = dexterMinted(step.amount, s.xtzPool, s.lqtTotal) ?? (before ? s.lqtTotal - before.lpSupply : 0n);
      return { kind: 'deposit', sender, receiver: String(p.owner), router, owner: String(p.owner), amounts: [tokens('in'), step.amount], shares };
    }
    case 'removeLiquidity':
      // lqtBurned is exact (not a bound): the owner's shares burned, possibly by an approved spender.
      return { kind: 'withdraw', sender, receiver: String(p.to), router, owner: String(p.owner), amounts: [tokens('out'), call.tez((a) => a === String(p.to))], shares: p.lqtBurned as bigint };
    case 'default':
      // Tez sent to the pool (baker rewards) join the tez reserve.
      return { kind: 'update', sender, receiver: step.contract, router, amounts: [0n, step.amount] };
    case 'updateTokenPoolInternal':
      // The token's getBalance callback sets the token reserve to the pool's real balance.
      return { kind: 'update', sender, receiver: step.contract, router, amounts: [before ? s.tokenPool - before.reserves[TOKEN] : 0n, 0n] };
  }
  return undefined;
}
