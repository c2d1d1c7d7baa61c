import type { MatchedStep, TypedCall } from '../../../../framework';
import type { VortexFa12Parameters } from '../vortex/types.gen';
import type { DexterV1Parameters } from './types.gen';
import type { DexAction, DexSupply, DexTradeAction } from '../../core/DexAdapter';
import { inputFee } from '../../core/InputFee';
import { type PoolCall } from '../../../../framework/defi';

/**
 * Calls that move the reserves: trades, liquidity, tez sent to `default` (baker rewards) and the token balance sync.
 */
export const DEXTER_CALLS = [
  'xtzToToken',
  'tokenToXtz',
  'tokenToToken',
  'addLiquidity',
  'removeLiquidity',
  'default',
  'updateTokenPoolInternal',
];
/** Pool order as the storage lists the reserves (and as the LB fork): the token is A, tez B. */
export const [TOKEN, TEZ] = [0, 1];

/**
 * What the Dexter-style pools (Dexter v1 and its fork Vortex) have in common, read from each one's
 * storage: one token against tez, `xtzToToken`/`tokenToXtz`/`tokenToToken`/`addLiquidity`/
 * `removeLiquidity` with the same field names (the forks differ in the parameter nesting, which the
 * decoded parameters hide, and in who owns the burned shares), and a fee kept from the input.
 */
export interface DexterPool {
  /** The token's contract and id (0 for FA1.2, as `PoolCall` reports FA1.2 moves). */
  readonly token: { readonly address: string; readonly id: bigint };
  /** Reserves `[tokenPool, xtzPool]` and `lqtTotal` after the call. */
  readonly supply: DexSupply;
  readonly feeBps: bigint;
  /** Vortex: the account its pools pay part of the fee to in tez, and that part's rate (bps of the input). */
  readonly reserve?: { readonly address: string; readonly bps: bigint };
  /** The shares an `addLiquidity` minted (the pools keep them in different ledgers). */
  minted(call: PoolCall, step: MatchedStep, before: DexSupply | undefined): bigint;
}

/** A call of a Dexter-style pool: Dexter v1's or Vortex's (generated from their shipped types). */
export type DexterCall = TypedCall<DexterV1Parameters> | TypedCall<VortexFa12Parameters>;

/** One call of a Dexter-style pool as an action, with amounts from what the call moved. */
export function decodeDexterCall(
  call: PoolCall,
  step: MatchedStep,
  c: DexterCall,
  pool: DexterPool,
  before: DexSupply | undefined,
): DexAction | undefined {
  const { sender, router } = call.parties();
  const tokens = (dir: 'in' | 'out') => call.tokens(pool.token.address, pool.token.id, dir);
  const fee = (amount: bigint, token: number) => fees(call, pool, amount, token);
  const token = { token: pool.token.address, tokenId: pool.token.id };
  // A plain tez transfer to the pool is a call of `default` without an entrypoint.
  switch (c.entrypoint) {
    case 'xtzToToken': {
      const [receiver, amountIn, amountOut] = [call.receiver(c.args.to, token), step.amount, tokens('out')];
      const fees = fee(amountIn, TEZ);
      return { kind: 'trade', sender, receiver, router, tokenIn: TEZ, tokenOut: TOKEN, amountIn, amountOut, fees };
    }
    case 'tokenToXtz':
    case 'tokenToToken': {
      // tokenToToken buys tez here and spends it on the output pool's xtzToToken, which that pool reports as its own
      // trade.
      const hop = c.entrypoint === 'tokenToToken';
      const to = c.entrypoint === 'tokenToToken' ? c.args.outputDexterContract : c.args.to;
      const amountIn = tokens('in');
      const amountOut = hop ? call.tezWith(to, 'xtzToToken') : call.tez((a) => a === to);
      const receiver = hop ? to : call.receiver(to, 'tez');
      return {
        kind: 'trade',
        sender,
        receiver,
        router,
        tokenIn: TOKEN,
        tokenOut: TEZ,
        amountIn,
        amountOut,
        fees: fee(amountIn, TOKEN),
      };
    }
    case 'addLiquidity':
      return {
        kind: 'deposit',
        sender,
        receiver: c.args.owner,
        router,
        owner: c.args.owner,
        amounts: [tokens('in'), step.amount],
        shares: pool.minted(call, step, before),
      };
    case 'removeLiquidity': {
      // lqtBurned is exact (not a bound). Dexter v1 names the owner (who may have approved the caller); Vortex burns
      // the caller's.
      const owner = 'owner' in c.args ? c.args.owner : sender;
      return {
        kind: 'withdraw',
        sender,
        receiver: c.args.to,
        router,
        owner,
        amounts: [tokens('out'), call.tez((a) => a === c.args.to)],
        shares: c.args.lqtBurned,
      };
    }
    case 'default':
      // Tez sent to the pool (baker rewards) join the tez reserve.
      return { kind: 'update', sender, receiver: step.contract, router, amounts: [0n, step.amount] };
    case 'updateTokenPoolInternal':
      // The token's balance callback sets the token reserve to the pool's real balance.
      return {
        kind: 'update',
        sender,
        receiver: step.contract,
        router,
        amounts: [before ? pool.supply.reserves[TOKEN] - before.reserves[TOKEN] : 0n, 0n],
      };
  }
  return undefined;
}

/**
 * A trade's fees: `feeBps` of the input, which the output formula leaves out (`in·(10000−bps)/10000`;
 * the contract does not round the fee itself, it is reported rounded up, `core/InputFee.ts`), stays in
 * the pool (`lp`), except the part a Vortex pool pays its `reserve` in tez (`dev`, as moved); the LPs
 * then keep `feeBps − reserve.bps` of the input. A trade too small to pay the reserve a mutez pays none.
 */
function fees(call: PoolCall, pool: DexterPool, amountIn: bigint, token: number): DexTradeAction['fees'] {
  const reserve = pool.reserve;
  const toReserve = reserve ? call.payouts('tez').filter((m) => m.to === reserve.address) : [];
  const paid = toReserve.reduce((n, m) => n + m.amount, 0n);
  if (!reserve || paid === 0n) return { lp: inputFee(amountIn, pool.feeBps, token) };
  const dev = { amount: paid, bps: String(reserve.bps), token: TEZ };
  return { lp: inputFee(amountIn, pool.feeBps - reserve.bps, token), dev };
}
