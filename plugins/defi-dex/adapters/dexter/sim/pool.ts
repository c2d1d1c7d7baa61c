import {
  type AccountBook,
  addressBytes,
  type BalanceUpdates,
  bool,
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
  tBool,
  tMutez,
  tNat,
  tTimestamp,
  tUnit,
} from '../../../../../framework/sandbox/extension';
import { deadline, type LedgerCall, type PoolCall, ReservePool } from '../../../sim/cpmm/ReservePool';

/** Dexter v1's `accounts` value: the balance and the allowances of spenders. */
const ACCOUNT = prim('pair', [tNat(':balance'), prim('map', [tAddress(':spender'), tNat(':allowance')])]);
/** A pair of two combs (Dexter v1's script nests its records so). */
const pairOf = (left: Micheline[], right: Micheline[]) => prim('pair', [pairT(...left), pairT(...right)]);
/** Dexter v1's parameter (its script annotates fields with `:` type annotations). */
const PARAMETER = entrypoints(
  ['approve', pairT(tAddress(':spender'), tNat(':allowance'), tNat(':currentAllowance'))],
  [
    'addLiquidity',
    pairOf([tAddress(':owner'), tNat(':minLqtMinted')], [tNat(':maxTokensDeposited'), tTimestamp(':deadline')]),
  ],
  [
    'removeLiquidity',
    pairOf(
      [tAddress(':owner'), tAddress(':to'), tNat(':lqtBurned')],
      [tMutez(':minXtzWithdrawn'), tNat(':minTokensWithdrawn'), tTimestamp(':deadline')],
    ),
  ],
  ['xtzToToken', pairT(tAddress(':to'), tNat(':minTokensBought'), tTimestamp(':deadline'))],
  [
    'tokenToXtz',
    pairOf(
      [tAddress(':owner'), tAddress(':to')],
      [tNat(':tokensSold'), tMutez(':minXtzBought'), tTimestamp(':deadline')],
    ),
  ],
  [
    'tokenToToken',
    pairOf(
      [tAddress(':outputDexterContract'), tNat(':minTokensBought'), tAddress(':owner')],
      [tAddress(':to'), tNat(':tokensSold'), tTimestamp(':deadline')],
    ),
  ],
  ['updateTokenPool', prim('key_hash')],
  ['updateTokenPoolInternal', tNat()],
  ['setBaker', prim('pair', [prim('option', [prim('key_hash')]), prim('bool')])],
  ['setManager', tAddress()],
  ['default', tUnit()],
);
const STORAGE = prim('pair', [
  tBigMap(tAddress(':owner'), ACCOUNT, '%accounts'),
  pairT(
    pairT(tBool(':selfIsUpdatingTokenPool'), tBool(':freezeBaker'), tNat(':lqtTotal')),
    pairT(pairT(tAddress(':manager'), tAddress(':tokenAddress')), pairT(tNat(':tokenPool'), tMutez(':xtzPool'))),
  ),
]);

/**
 * A Dexter v1 tez/FA1.2 pool: shares in its own `accounts` big map (balance and allowances), a 0.3% fee kept in
 * the pool (997/1000; no source at hand for the rate or the rounding), the pool's own address as its manager.
 */
export class DexterPool extends ReservePool {
  readonly role = 'dexter_v1';
  readonly code = script(PARAMETER, STORAGE);
  protected override tezFee: [bigint, bigint] = [997n, 1000n];

  constructor(book: AccountBook, address: string, token: Fa12Token) {
    super(book, address, token, undefined, undefined);
  }

  protected override allocate(diff: LazyStorageDiff): { shares: number } {
    return { shares: diff.alloc(tAddress(), ACCOUNT) };
  }

  storage(): Micheline {
    const s = this.state;
    const flags = pair(bool(false), bool(false), int(s.lqtTotal));
    const addresses = pair(addressBytes(this.address), addressBytes(this.token.address));
    return pair(int(s.shares ?? 0), pair(flags, pair(addresses, pair(int(s.tokenPool), int(s.otherPool)))));
  }

  /** An account holds (balance, allowances): an empty allowance map. */
  protected override ledgerValue(shares: bigint): Micheline {
    return pair(int(shares), []);
  }

  protected override ledgerBalance(value: Micheline | undefined): bigint {
    const balance = value && 'prim' in value && value.prim === 'Pair' ? value.args?.[0] : value;
    return super.ledgerBalance(balance);
  }

  swap(call: CallContext, user: string, sellToken: boolean, amountIn: bigint, transfer: BalanceUpdates): PoolCall {
    const { out } = this.swapTez(call, user, sellToken, amountIn, transfer);
    const ts = call.ctx.timestamp;
    if (!sellToken)
      return { entrypoint: 'xtzToToken', amount: amountIn, value: pair(str(user), int(out), deadline(ts)) };
    const value = pair(pair(str(user), str(user)), pair(int(amountIn), int(out), deadline(ts)));
    return { entrypoint: 'tokenToXtz', amount: 0n, value };
  }

  addLiquidity(call: CallContext, user: string, other: bigint, transfer: BalanceUpdates, opening = 0n): LedgerCall {
    const { tokens, minted, grown } = this.deposit(call, user, other, transfer, opening);
    const value = pair(pair(str(user), int(minted)), pair(int(tokens), deadline(call.ctx.timestamp)));
    return { grown, entrypoint: 'addLiquidity', amount: other, value };
  }

  removeLiquidity(call: CallContext, user: string, shares: bigint): LedgerCall {
    const { tokens, other, grown } = this.withdraw(call, user, shares);
    const ts = call.ctx.timestamp;
    const value = pair(pair(str(user), str(user), int(shares)), pair(int(other), int(tokens), deadline(ts)));
    return { grown, entrypoint: 'removeLiquidity', amount: 0n, value };
  }
}
