import {
  type AccountBook,
  BalanceUpdates,
  bigMapGet,
  type CallContext,
  type ContractModel,
  type Fa12Token,
  int,
  type LazyStorageDiff,
  type Micheline,
  NULL_ADDRESS,
  str,
} from '../../../../framework/sandbox/extension';
import { constantProductOut } from './constantProduct';
import { PendingDiff } from './PendingDiff';

/** The reserves of a two-sided pool and, when its LP shares are in its own ledger, that big map's id. */
export interface PoolState {
  /** Reserve of the token side (token A of a two-token pool). */
  tokenPool: bigint;
  /** Tez reserve of a tez pool, or token B's reserve. */
  otherPool: bigint;
  lqtTotal: bigint;
  /** The pool's own LP ledger (a big map id), when it keeps one. */
  shares?: number;
  /** Its other big maps (ids in storage order), when its protocol has some. */
  maps?: number[];
}

export interface PoolCall {
  entrypoint: string;
  value: Micheline;
  /** Tez attached to the call. */
  amount: bigint;
}

/** A pool call that may have created ledger entries (`grown`, the storage the payer pays for). */
export type LedgerCall = PoolCall & { grown: number };

/** A call's deadline: 20 minutes after the block time. */
export const deadlineTime = (ts: string) => new Date(Date.parse(ts) + 20 * 60_000);
export const deadline = (ts: string) => str(deadlineTime(ts).toISOString().replace('.000Z', 'Z'));

/** The smaller of two amounts. */
export const min = (a: bigint, b: bigint) => (a < b ? a : b);

/**
 * What every reserve pool model of the sandbox has, whatever its protocol: its reserves in the account
 * book, the tokens it holds, its LP shares (an LP token's balances, or its own ledger big map, whose diff
 * is built up in `pending` while a call applies) and the moves of tokens and tez between users and the
 * pool. Each protocol's simulator (`adapters/<protocol>/sim/`) extends it with its real contract's
 * entrypoints, storage and formulas; nothing here depends on which protocol it is.
 */
export abstract class ReservePool implements ContractModel {
  readonly service = 'dex';
  abstract readonly role: string;
  abstract readonly code: Micheline;
  /** Diff of the pool's own ledger within the current call. */
  readonly pending = new PendingDiff();

  constructor(
    protected readonly book: AccountBook,
    readonly address: string,
    readonly token: Fa12Token,
    /** The LP token the pool mints and burns (`mintOrBurn`), or undefined: shares in the pool's own ledger. */
    readonly lqt: Fa12Token | undefined,
    /** Token B of a two-token pool, or undefined: a tez pool. */
    readonly tokenB: Fa12Token | undefined,
    /** Who transfers the input tokens of a two-token pool: the pool itself, or the router that calls it. */
    protected readonly payer = address,
    /** Where the pool sends the part of a fee its contract pays out (an account the book knows). */
    protected readonly feeRecipient = address,
  ) {}

  abstract storage(): Micheline;
  abstract swap(
    call: CallContext,
    user: string,
    sellToken: boolean,
    amountIn: bigint,
    transfer: BalanceUpdates,
  ): PoolCall;
  abstract addLiquidity(
    call: CallContext,
    user: string,
    other: bigint,
    transfer: BalanceUpdates,
    opening?: bigint,
  ): LedgerCall;
  abstract removeLiquidity(call: CallContext, user: string, shares: bigint): LedgerCall;

  get state(): PoolState {
    return this.book.state<PoolState>(this.address);
  }

  protected setState(s: PoolState): void {
    this.book.setState<PoolState>(this.address, s);
  }

  /** The big maps the pool allocates at origination (none unless its protocol has some). */
  protected allocate(_diff: LazyStorageDiff): Pick<PoolState, 'shares' | 'maps'> {
    return {};
  }

  init(diff: LazyStorageDiff, tokenPool: bigint, otherPool: bigint, lqtTotal: bigint): void {
    this.setState({ tokenPool, otherPool, lqtTotal, ...this.allocate(diff) });
  }

  /** The tokens a deposit of `other` brings: at the reserves' ratio rounded up; into an empty pool, `opening`. */
  tokensFor(other: bigint, opening = 0n): bigint {
    const s = this.state;
    return s.lqtTotal === 0n ? opening : (other * s.tokenPool + s.otherPool - 1n) / s.otherPool;
  }

  /** The shares a deposit of `other` mints: pro rata, or as many as `other` into an empty pool (Dexter's rule). */
  protected mintedFor(other: bigint): bigint {
    const s = this.state;
    return s.lqtTotal === 0n ? other : (other * s.lqtTotal) / s.otherPool;
  }

  /** The reserves `shares` are worth, rounded down: [tokens, other]. */
  protected proRata(shares: bigint): [tokens: bigint, other: bigint] {
    const s = this.state;
    return [(shares * s.tokenPool) / s.lqtTotal, (shares * s.otherPool) / s.lqtTotal];
  }

  /** The reserves and supply moved by `tokens`, `other` and `lqt` (signed). */
  protected moveReserves(tokens: bigint, other: bigint, lqt = 0n): void {
    const s = this.state;
    this.setState({
      ...s,
      tokenPool: s.tokenPool + tokens,
      otherPool: s.otherPool + other,
      lqtTotal: s.lqtTotal + lqt,
    });
  }

  /** Tez from `user` to the pool, attached to the call. */
  protected tezIn(transfer: BalanceUpdates, user: string, amount: bigint): void {
    transfer.transfer(
      (b, c) => b.contract(user, c),
      (b, c) => b.contract(this.address, c),
      amount,
    );
  }

  /** A tez pool's fee: the input counts for `num`/`den` of itself in the constant product. */
  protected tezFee: [num: bigint, den: bigint] = [1n, 1n];

  /** The tez a tez pool burns of `mutez` it moves (none unless its contract burns). */
  protected burnOf(_mutez: bigint): bigint {
    return 0n;
  }

  /** The tez a tez pool pays `feeRecipient` for a swap, out of its tez reserve (none unless its contract does). */
  protected reserveFee(_sellToken: boolean, _amountIn: bigint): bigint {
    return 0n;
  }

  /**
   * A tez pool's swap on the constant product: tez in (the burn taken first) for tokens, or tokens in for
   * tez (the burn taken of the tez out), the burn sent to the null address and the reserve fee to
   * `feeRecipient`. Returns the tokens (tez in) or the tez before the burn (tokens in) the product gave.
   */
  protected swapTez(
    call: CallContext,
    user: string,
    sellToken: boolean,
    amountIn: bigint,
    transfer: BalanceUpdates,
  ): { out: bigint; burn: bigint } {
    const s = this.state;
    const [num, den] = this.tezFee;
    if (!sellToken) this.tezIn(transfer, user, amountIn);
    const burn = sellToken ? 0n : this.burnOf(amountIn);
    const out = sellToken
      ? constantProductOut(amountIn, s.tokenPool, s.otherPool, num, den)
      : constantProductOut(amountIn - burn, s.otherPool, s.tokenPool, num, den);
    const burnOut = sellToken ? this.burnOf(out) : burn;
    const reserve = this.reserveFee(sellToken, amountIn);
    if (sellToken) {
      this.token.transfer(call, this.address, user, this.address, amountIn);
      call.pushTezTransfer(this.address, user, out - burnOut);
    } else this.token.transfer(call, this.address, this.address, user, out);
    if (burnOut > 0n) call.pushTezTransfer(this.address, NULL_ADDRESS, burnOut);
    if (reserve > 0n) call.pushTezTransfer(this.address, this.feeRecipient, reserve);
    if (sellToken) this.moveReserves(amountIn, -out - reserve);
    else this.moveReserves(-out, amountIn - burn - reserve);
    return { out, burn: burnOut };
  }

  /** A two-token pool's swap paying `out`: the input from the user (by `payer`), the output to the user. */
  protected exchange(call: CallContext, user: string, sellToken: boolean, amountIn: bigint, out: bigint): Fa12Token {
    const b = this.requireTokenB();
    const [tin, tout] = sellToken ? [this.token, b] : [b, this.token];
    tin.transfer(call, this.payer, user, this.address, amountIn);
    tout.transfer(call, this.address, this.address, user, out);
    if (sellToken) this.moveReserves(amountIn, -out);
    else this.moveReserves(-out, amountIn);
    return tout;
  }

  /** The reserves on the input and the output side of a swap. */
  protected sides(sellToken: boolean): [inPool: bigint, outPool: bigint] {
    const s = this.state;
    return sellToken ? [s.tokenPool, s.otherPool] : [s.otherPool, s.tokenPool];
  }

  /**
   * Deposits `other` (tez, or token B) and the matching tokens (`tokensFor`) from `user`, mints the shares
   * (`mintedFor`) and moves the reserves.
   */
  protected deposit(
    call: CallContext,
    user: string,
    other: bigint,
    transfer: BalanceUpdates,
    opening: bigint,
  ): { tokens: bigint; minted: bigint; grown: number } {
    const tokens = this.tokensFor(other, opening);
    const minted = this.mintedFor(other);
    if (this.tokenB) {
      this.token.transfer(call, this.payer, user, this.address, tokens);
      this.tokenB.transfer(call, this.payer, user, this.address, other);
    } else {
      this.tezIn(transfer, user, other);
      this.token.transfer(call, this.address, user, this.address, tokens);
    }
    const grown = this.mintShares(call, user, minted);
    this.moveReserves(tokens, other, minted);
    return { tokens, minted, grown };
  }

  /** Burns `shares` of `holder` for the pro-rata reserves, paid to `user`. */
  protected withdraw(
    call: CallContext,
    user: string,
    shares: bigint,
    holder = user,
  ): { tokens: bigint; other: bigint; grown: number } {
    const [tokens, other] = this.proRata(shares);
    const grown = this.mintShares(call, holder, -shares);
    this.token.transfer(call, this.address, this.address, user, tokens);
    if (this.tokenB) this.tokenB.transfer(call, this.address, this.address, user, other);
    else call.pushTezTransfer(this.address, user, other);
    this.moveReserves(-tokens, -other, -shares);
    return { tokens, other, grown };
  }

  /** Token B, which a two-token pool has. */
  protected requireTokenB(): Fa12Token {
    if (!this.tokenB) throw new Error(`${this.address}: not a two-token pool`);
    return this.tokenB;
  }

  /** Mints (`delta` > 0) or burns LP shares of `user`: the LP token's or the own ledger's; the entries created. */
  protected mintShares(call: CallContext, user: string, delta: bigint): number {
    if (this.lqt) {
      this.lqt.mintOrBurn(call, this.address, user, delta);
      return 0;
    }
    return this.moveShares(call, user, delta);
  }

  /** A share balance as the pool's own ledger stores it. */
  protected ledgerValue(shares: bigint): Micheline {
    return int(shares);
  }

  /** The share balance in a ledger value. */
  protected ledgerBalance(value: Micheline | undefined): bigint {
    return value && 'int' in value ? BigInt(value.int) : 0n;
  }

  /** LP shares `user` holds (in the pool's own ledger or in the LP token). */
  sharesOf(user: string): bigint {
    if (this.lqt) return this.lqt.balanceOf(user);
    return this.ledgerBalance(bigMapGet(this.book, this.state.shares ?? -1, str(user)));
  }

  /** Moves shares of the pool's own ledger (an FA2 `transfer` of a pair); returns the entries created. */
  transferShares(call: CallContext, from: string, to: string, amount: bigint): number {
    return this.moveShares(call, from, -amount) + this.moveShares(call, to, amount);
  }

  private moveShares(call: CallContext, user: string, delta: bigint): number {
    const before = this.sharesOf(user);
    const after = before + delta;
    this.pending
      .of(call)
      .update(this.state.shares ?? -1, str(user), after === 0n ? undefined : this.ledgerValue(after));
    return before === 0n && after > 0n ? 1 : 0;
  }
}
