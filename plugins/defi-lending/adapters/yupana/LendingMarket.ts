import {
  type AccountBook,
  CallContext,
  type ContractModel,
  entrypoints,
  type Fa12Token,
  int,
  type LazyStorageDiff,
  type Micheline,
  pair,
  pairT,
  PositionBook,
  script,
  str,
  tAddress,
  tBigMap,
  tNat,
  tTimestamp,
} from '../../../../framework/sandbox/extension';

interface LendingState {
  ledger: number;
  borrows: number;
}

export type LendingAction = 'mint' | 'redeem' | 'borrow' | 'repay';

const KEY = pairT(tAddress(), tNat());

/**
 * A Yupana-style multi-market lending pool: `mint`/`redeem {tokenId, amount, minReceived}` supply and
 * withdraw, `borrow`/`repay {tokenId, amount, deadline}` take and return loans; the underlying tokens
 * move through internal FA1.2 transfers. Market ids index `markets`.
 */
export class LendingMarket implements ContractModel {
  readonly role = 'yupana' as const;
  readonly code = script(
    entrypoints(
      ['borrow', pairT(tNat('%tokenId'), tNat('%amount'), tTimestamp('%deadline'))],
      ['mint', pairT(tNat('%tokenId'), tNat('%amount'), tNat('%minReceived'))],
      ['redeem', pairT(tNat('%tokenId'), tNat('%amount'), tNat('%minReceived'))],
      ['repay', pairT(tNat('%tokenId'), tNat('%amount'), tTimestamp('%deadline'))],
    ),
    pairT(tBigMap(KEY, tNat(), '%ledger'), tBigMap(KEY, tNat(), '%accounts')),
  );
  readonly supplied: PositionBook;
  readonly borrowed: PositionBook;

  constructor(private readonly book: AccountBook, readonly address: string, readonly markets: Fa12Token[]) {
    this.supplied = new PositionBook(book, () => this.state.ledger, true);
    this.borrowed = new PositionBook(book, () => this.state.borrows, true);
  }

  get state(): LendingState {
    return this.book.state<LendingState>(this.address);
  }

  init(diff: LazyStorageDiff): void {
    this.book.setState<LendingState>(this.address, { ledger: diff.alloc(KEY, tNat()), borrows: diff.alloc(KEY, tNat()) });
  }

  storage(): Micheline {
    return pair(int(this.state.ledger), int(this.state.borrows));
  }

  apply(call: CallContext, diff: LazyStorageDiff, user: string, action: LendingAction, tokenId: number, amount: bigint): { value: Micheline; grown: number } {
    const token = this.markets[tokenId];
    let grown = 0;
    switch (action) {
      case 'mint':
        token.transfer(call, this.address, user, this.address, amount);
        grown = this.supplied.add(diff, user, amount, tokenId);
        break;
      case 'redeem':
        grown = this.supplied.add(diff, user, -amount, tokenId);
        token.transfer(call, this.address, this.address, user, amount);
        break;
      case 'borrow':
        grown = this.borrowed.add(diff, user, amount, tokenId);
        token.transfer(call, this.address, this.address, user, amount);
        break;
      case 'repay':
        token.transfer(call, this.address, user, this.address, amount);
        grown = this.borrowed.add(diff, user, -amount, tokenId);
        break;
    }
    const third = action === 'mint' || action === 'redeem' ? int(amount - amount / 100n) : str(new Date(Date.parse(call.ctx.timestamp) + 600_000).toISOString().replace('.000Z', 'Z'));
    return { value: pair(int(tokenId), int(amount), third), grown };
  }
}
