import {
  asMicheline,
  type AccountBook,
  type BalanceUpdates,
  type CallContext,
  type Fa12Token,
  type LazyStorageDiff,
  type Micheline,
  shippedScript,
} from '../../../../../framework/sandbox/extension';
import { deadlineTime, type LedgerCall, type PoolCall, ReservePool } from '../../../sim/cpmm/ReservePool';
import { dexterV1Code } from '../types.gen';

/** The `accounts` big map of the real storage (`../types.ts`): an owner's (balance, allowances). */
const ACCOUNTS = dexterV1Code.storageValue.field('accounts').entries();

/**
 * A Dexter v1 tez/FA1.2 pool: shares in its own `accounts` big map (balance and allowances), a 0.3% fee kept in
 * the pool (997/1000; no source at hand for the rate or the rounding), the pool's own address as its manager.
 */
export class DexterPool extends ReservePool {
  readonly role = 'dexter_v1';
  readonly code = shippedScript(dexterV1Code.types);
  protected override tezFee: [bigint, bigint] = [997n, 1000n];

  constructor(book: AccountBook, address: string, token: Fa12Token) {
    super(book, address, token, undefined, undefined);
  }

  protected override allocate(diff: LazyStorageDiff): { shares: number } {
    return { shares: diff.alloc(asMicheline(ACCOUNTS.key.type), asMicheline(ACCOUNTS.value.type)) };
  }

  storage(): Micheline {
    const s = this.state;
    return dexterV1Code.storageValue.encode(
      {
        accounts: s.shares ?? 0,
        selfIsUpdatingTokenPool: false,
        freezeBaker: false,
        lqtTotal: s.lqtTotal,
        manager: this.address,
        tokenAddress: this.token.address,
        tokenPool: s.tokenPool,
        xtzPool: s.otherPool,
      },
      'optimized',
    );
  }

  /** An account holds (balance, allowances): an empty allowance map. */
  protected override ledgerValue(shares: bigint): Micheline {
    return ACCOUNTS.value.encode({ balance: shares, '1': new Map() }, 'optimized');
  }

  protected override ledgerBalance(value: Micheline | undefined): bigint {
    const balance = value && 'prim' in value && value.prim === 'Pair' ? value.args?.[0] : value;
    return super.ledgerBalance(balance);
  }

  swap(call: CallContext, user: string, sellToken: boolean, amountIn: bigint, transfer: BalanceUpdates): PoolCall {
    const { out } = this.swapTez(call, user, sellToken, amountIn, transfer);
    const deadline = deadlineTime(call.ctx.timestamp);
    if (!sellToken) {
      const value = dexterV1Code.encodeCall('xtzToToken', { to: user, minTokensBought: out, deadline });
      return { entrypoint: 'xtzToToken', amount: amountIn, value };
    }
    const args = { owner: user, to: user, tokensSold: amountIn, minXtzBought: out, deadline };
    return { entrypoint: 'tokenToXtz', amount: 0n, value: dexterV1Code.encodeCall('tokenToXtz', args) };
  }

  addLiquidity(call: CallContext, user: string, other: bigint, transfer: BalanceUpdates, opening = 0n): LedgerCall {
    const { tokens, minted, grown } = this.deposit(call, user, other, transfer, opening);
    const value = dexterV1Code.encodeCall('addLiquidity', {
      owner: user,
      minLqtMinted: minted,
      maxTokensDeposited: tokens,
      deadline: deadlineTime(call.ctx.timestamp),
    });
    return { grown, entrypoint: 'addLiquidity', amount: other, value };
  }

  removeLiquidity(call: CallContext, user: string, shares: bigint): LedgerCall {
    const { tokens, other, grown } = this.withdraw(call, user, shares);
    const value = dexterV1Code.encodeCall('removeLiquidity', {
      owner: user,
      to: user,
      lqtBurned: shares,
      minXtzWithdrawn: other,
      minTokensWithdrawn: tokens,
      deadline: deadlineTime(call.ctx.timestamp),
    });
    return { grown, entrypoint: 'removeLiquidity', amount: 0n, value };
  }
}
