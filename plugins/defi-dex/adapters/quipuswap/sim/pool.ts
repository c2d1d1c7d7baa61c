import {
  type AccountBook,
  addressBytes,
  type BalanceUpdates,
  type CallContext,
  entrypoints,
  type Fa12Token,
  int,
  type LazyStorageDiff,
  type Micheline,
  pair,
  pairT,
  prim,
  script,
  str,
  tAddress,
  tBigMap,
  tMutez,
  tNat,
  tUnit,
} from '../../../../../framework/sandbox/extension';
import { type LedgerCall, type PoolCall, ReservePool } from '../../../sim/cpmm/ReservePool';

/** QuipuSwap v1's named-entrypoint parameter (a tez/FA1.2 pair). */
const PARAMETER = entrypoints(
  ['tezToTokenPayment', pairT(tNat('%min_out'), tAddress('%receiver'))],
  ['tokenToTezPayment', prim('pair', [pairT(tNat('%amount'), tNat('%min_out')), tAddress('%receiver')])],
  ['investLiquidity', tNat()],
  ['divestLiquidity', prim('pair', [pairT(tNat('%min_tez'), tNat('%min_tokens')), tNat('%shares')])],
  ['withdrawProfit', tAddress()],
  ['default', tUnit()],
);
const STORAGE = pairT(
  tMutez('%tez_pool'),
  tNat('%token_pool'),
  tNat('%total_supply'),
  tAddress('%token_address'),
  tBigMap(tAddress(), tNat(), '%ledger'),
);

/**
 * A QuipuSwap v1 tez/FA1.2 pool: shares in its own `ledger`, a 0.3% fee kept in the pool (997/1000; no source
 * at hand for the rate or the rounding), the whole tez paid in kept in the pool.
 */
export class QuipuswapPool extends ReservePool {
  readonly role = 'quipuswap_v1';
  readonly code = script(PARAMETER, STORAGE);
  protected override tezFee: [bigint, bigint] = [997n, 1000n];

  constructor(book: AccountBook, address: string, token: Fa12Token) {
    super(book, address, token, undefined, undefined);
  }

  protected override allocate(diff: LazyStorageDiff): { shares: number } {
    return { shares: diff.alloc(tAddress(), tNat()) };
  }

  storage(): Micheline {
    const s = this.state;
    const token = addressBytes(this.token.address);
    return pair(int(s.otherPool), int(s.tokenPool), int(s.lqtTotal), token, int(s.shares ?? 0));
  }

  swap(call: CallContext, user: string, sellToken: boolean, amountIn: bigint, transfer: BalanceUpdates): PoolCall {
    const { out } = this.swapTez(call, user, sellToken, amountIn, transfer);
    return sellToken
      ? { entrypoint: 'tokenToTezPayment', amount: 0n, value: pair(pair(int(amountIn), int(out)), str(user)) }
      : { entrypoint: 'tezToTokenPayment', amount: amountIn, value: pair(int(out), str(user)) };
  }

  addLiquidity(call: CallContext, user: string, other: bigint, transfer: BalanceUpdates, opening = 0n): LedgerCall {
    const { minted, grown } = this.deposit(call, user, other, transfer, opening);
    return { grown, entrypoint: 'investLiquidity', amount: other, value: int(minted) };
  }

  removeLiquidity(call: CallContext, user: string, shares: bigint): LedgerCall {
    const { tokens, other, grown } = this.withdraw(call, user, shares);
    const value = pair(pair(int(other), int(tokens)), int(shares));
    return { grown, entrypoint: 'divestLiquidity', amount: 0n, value };
  }
}
