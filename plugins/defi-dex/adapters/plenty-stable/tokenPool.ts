import type { TypedCall } from '../../../../framework';
import type { DexAction } from '../../core/DexAdapter';
import { type PoolCall } from '../../../../framework/defi';
import { plentyToken } from '../plenty/common';
import { outputFee, type StablePool } from './pool';
import { type PlentyStableTokenParameters, plentyStableTokenCode } from './types.gen';

/** How the pool's token moves name its tokens (contract, id). */
type TokenPool = StablePool & { legs: Array<{ address: string; id: bigint }> };

/** A token/token pool's storage (token1 = A, token2 = B), or undefined when it is not one. */
export function tokenPool(v: unknown): TokenPool | undefined {
  const s = plentyStableTokenCode.storage(v);
  if (!s) return undefined;
  // FA1.2 moves carry token id 0 (PoolCall), whatever id the storage keeps for them.
  const legs = [
    { address: s.token1Address, id: s.token1Check ? s.token1Id : 0n },
    { address: s.token2Address, id: s.token2Check ? s.token2Id : 0n },
  ];
  return {
    tokens: [
      plentyToken(s.token1Address, s.token1Id, s.token1Check),
      plentyToken(s.token2Address, s.token2Id, s.token2Check),
    ],
    lqtAddress: s.lqtAddress,
    lqtTotal: s.lqtTotal,
    reserves: [s.token1Pool, s.token2Pool],
    lpFee: s.lpFee,
    feeToVoters: s.state,
    legs,
  };
}

/** One call of a token/token pool; `Swap` names the token wanted (the output), the fee comes off the output. */
export function decodeTokenPoolCall(
  call: PoolCall,
  c: TypedCall<PlentyStableTokenParameters>,
  pool: TokenPool,
): DexAction | undefined {
  const { sender, router } = call.parties();
  const moved = (i: number, dir: 'in' | 'out') => call.tokens(pool.legs[i].address, pool.legs[i].id, dir);
  switch (c.entrypoint) {
    case 'Swap': {
      const p = c.args;
      const wanted = (i: number) =>
        p.requiredTokenAddress === pool.legs[i].address &&
        (pool.tokens[i].standard !== 'fa2' || p.requiredTokenId === pool.legs[i].id);
      const tokenOut = wanted(0) ? 0 : wanted(1) ? 1 : -1;
      if (tokenOut < 0) return undefined;
      const tokenIn = 1 - tokenOut;
      const amountOut = moved(tokenOut, 'out');
      const out = pool.legs[tokenOut];
      const receiver = call.receiver(p.recipient, { token: out.address, tokenId: out.id });
      return {
        kind: 'trade',
        sender,
        receiver,
        router,
        tokenIn,
        tokenOut,
        amountIn: moved(tokenIn, 'in'),
        amountOut,
        fees: outputFee(amountOut, pool, tokenOut),
      };
    }
    case 'add_liquidity':
      return {
        kind: 'deposit',
        sender,
        receiver: c.args.recipient,
        router,
        owner: c.args.recipient,
        amounts: [moved(0, 'in'), moved(1, 'in')],
        shares: call.shares(pool.lqtAddress),
      };
    case 'remove_liquidity':
      return {
        kind: 'withdraw',
        sender,
        receiver: call.receiver(c.args.recipient),
        router,
        owner: sender,
        amounts: [moved(0, 'out'), moved(1, 'out')],
        shares: -call.shares(pool.lqtAddress),
      };
  }
  return undefined;
}
