import {
  type AccountBook,
  bigMapGet,
  CallContext,
  combItems,
  type ContractModel,
  entrypoints,
  type Fa12Token,
  int,
  intOf,
  type LazyStorageDiff,
  type Micheline,
  pair,
  pairT,
  PositionBook,
  prim,
  script,
  str,
  stringOf,
  tAddress,
  tBigMap,
  tNat,
  tTimestamp,
} from '../../../../../framework/sandbox/extension';

/** Yupana's fixed point (`precision`): every `…F` figure, shares and the borrow index are ×10^18. */
const PRECISION = 10n ** 18n;
/** Reserve factor of every market (Yupana's `reserveFactorF`): 15% of the interest goes to reserves. */
const RESERVE_FACTOR_F = 150_000_000_000_000_000n;
/**
 * The jump-rate coefficients of the markets' interest-rate model (per second, ×10^18): high enough that
 * interest shows within the sandbox's few hundred blocks.
 */
const RATE = {
  baseRateF: 20_000_000_000n,
  multiplierF: 200_000_000_000n,
  kinkF: 800_000_000_000_000_000n,
  jumpMultiplierF: 1_000_000_000_000n,
};

/**
 * Liquidators get 5% more collateral than the debt they repay (Yupana's `liqIncentiveF`), up to half the borrow
 * (`closeFactorF`).
 */
const LIQ_INCENTIVE_F = 1_050_000_000_000_000_000n;
const CLOSE_FACTOR_F = 500_000_000_000_000_000n;
/** Share of a liquidation's collateral that goes to reserves (`liquidReserveRateF`). */
const LIQUID_RESERVE_RATE_F = 50_000_000_000_000_000n;
/** Fixed oracle prices per raw unit, ×10^36 (kUSD 1 $, tzBTC 30000 $, ctez 2 $): the model has no price feed. */
const PRICES = [10n ** 18n, 3n * 10n ** 32n, 2n * 10n ** 30n];

/** One market's figures, named as in Yupana's `tokenType` (interestUpdateTime in seconds). */
export interface MarketState {
  readonly totalBorrowsF: bigint;
  readonly totalLiquidF: bigint;
  readonly totalSupplyF: bigint;
  readonly totalReservesF: bigint;
  readonly borrowIndex: bigint;
  readonly interestUpdateTime: bigint;
  readonly lastPrice: bigint;
  readonly liquidReserveRateF: bigint;
}

interface LendingState {
  ledger: number;
  accounts: number;
  tokens: readonly MarketState[];
}

export type LendingAction = 'mint' | 'redeem' | 'borrow' | 'repay';

/**
 * A liquidation: the liquidator repays `amount` of the borrower's `borrowToken` debt and takes `collateralToken`
 * yTokens.
 */
export interface Liquidation {
  readonly borrowToken: number;
  readonly collateralToken: number;
  readonly borrower: string;
  readonly amount: bigint;
}

const KEY = pairT(tAddress(), tNat());
/** Yupana's `account`: allowances, borrow ×10^18, the borrow index the borrow was last brought to. */
const ACCOUNT = pairT(prim('set', [tAddress()], ['%allowances']), tNat('%borrow'), tNat('%lastBorrowIndex'));
const TOKEN = pairT(
  tNat('%totalBorrowsF'),
  tNat('%totalLiquidF'),
  tNat('%totalSupplyF'),
  tNat('%totalReservesF'),
  tNat('%borrowIndex'),
  tTimestamp('%interestUpdateTime'),
  tNat('%lastPrice'),
  tNat('%liquidReserveRateF'),
);
/** TZIP-12 `transfer`. */
const TRANSFER = prim('list', [
  pairT(tAddress('%from_'), prim('list', [pairT(tAddress('%to_'), tNat('%token_id'), tNat('%amount'))], ['%txs'])),
]);

const seconds = (call: CallContext): bigint => BigInt(Math.floor(Date.parse(call.ctx.timestamp) / 1000));
const sub = (a: bigint, b: bigint, what: string): bigint => {
  if (a < b) throw new Error(`sandbox: yupana ${what} would become negative`);
  return a - b;
};

/**
 * A Yupana yToken contract, reduced to what lending moves: `mint`/`redeem {tokenId, amount,
 * minReceived}`, `borrow`/`repay {tokenId, amount, deadline}` and `updateInterest tokenId`, with
 * Yupana's storage figures (`ledger` yTokens, `accounts` borrows, `tokens` totals ×10^18) and its
 * formulas: shares minted at liquidity / totalSupply, borrows brought to the market's borrow index
 * before they change, and accrual by `borrowRate × seconds` over totalBorrows, reserves and index.
 * `liquidate` and the yToken `transfer` follow Yupana's formulas too. Differences: `updateInterest`
 * accrues at once (the real contract asks its rate model, which calls back `accrueInterest` with the
 * rate computed by the same jump-rate formula); fixed prices, no collateral or health check, no
 * `enterMarket`; the underlying tokens are FA1.2.
 */
export class LendingMarket implements ContractModel {
  readonly role = 'yupana' as const;
  readonly service = 'lending';
  readonly code = script(
    entrypoints(
      ['borrow', pairT(tNat('%tokenId'), tNat('%amount'), tTimestamp('%deadline'))],
      ['mint', pairT(tNat('%tokenId'), tNat('%amount'), tNat('%minReceived'))],
      ['redeem', pairT(tNat('%tokenId'), tNat('%amount'), tNat('%minReceived'))],
      [
        'liquidate',
        pairT(
          tNat('%borrowToken'),
          tNat('%collateralToken'),
          tAddress('%borrower'),
          tNat('%amount'),
          tNat('%minSeized'),
          tTimestamp('%deadline'),
        ),
      ],
      ['repay', pairT(tNat('%tokenId'), tNat('%amount'), tTimestamp('%deadline'))],
      ['transfer', TRANSFER],
      ['updateInterest', tNat()],
    ),
    pairT(
      tBigMap(KEY, tNat(), '%ledger'),
      tBigMap(KEY, ACCOUNT, '%accounts'),
      prim('map', [tNat(), TOKEN], ['%tokens']),
      tNat('%liqIncentiveF'),
    ),
  );
  /** yTokens per (owner, market), ×10^18. */
  readonly supplied: PositionBook;

  constructor(
    private readonly book: AccountBook,
    readonly address: string,
    readonly markets: Fa12Token[],
  ) {
    this.supplied = new PositionBook(book, () => this.state.ledger, true);
  }

  get state(): LendingState {
    return this.book.state<LendingState>(this.address);
  }

  init(diff: LazyStorageDiff): void {
    const empty = (id: number): MarketState => ({
      totalBorrowsF: 0n,
      totalLiquidF: 0n,
      totalSupplyF: 0n,
      totalReservesF: 0n,
      borrowIndex: PRECISION,
      interestUpdateTime: 0n,
      lastPrice: PRICES[id],
      liquidReserveRateF: LIQUID_RESERVE_RATE_F,
    });
    this.book.setState<LendingState>(this.address, {
      ledger: diff.alloc(KEY, tNat()),
      accounts: diff.alloc(KEY, ACCOUNT),
      tokens: this.markets.map((_, id) => empty(id)),
    });
  }

  storage(): Micheline {
    const s = this.state;
    const figures = (m: MarketState) =>
      [
        m.totalBorrowsF,
        m.totalLiquidF,
        m.totalSupplyF,
        m.totalReservesF,
        m.borrowIndex,
        m.interestUpdateTime,
        m.lastPrice,
        m.liquidReserveRateF,
      ].map(int);
    const tokens = s.tokens.map((m, id) => prim('Elt', [int(id), pair(...figures(m))]));
    return pair(int(s.ledger), int(s.accounts), tokens, int(LIQ_INCENTIVE_F));
  }

  /** The owner's account in a market: borrow ×10^18 and the index it was last brought to. */
  account(owner: string, tokenId: number): { borrow: bigint; lastBorrowIndex: bigint } {
    // Stored as `Pair allowances (Pair borrow lastBorrowIndex)`.
    const v = bigMapGet(this.book, this.state.accounts, pair(str(owner), int(tokenId)));
    if (!v) return { borrow: 0n, lastBorrowIndex: 0n };
    const [, borrow, lastBorrowIndex] = combItems(v);
    return { borrow: intOf(borrow), lastBorrowIndex: intOf(lastBorrowIndex) };
  }

  /**
   * What the owner owes in a market now (underlying, rounded up as repay transfers it) with the interest accrued so
   * far.
   */
  owed(owner: string, tokenId: number): bigint {
    const a = this.account(owner, tokenId);
    const borrow =
      a.lastBorrowIndex === 0n ? a.borrow : (a.borrow * this.state.tokens[tokenId].borrowIndex) / a.lastBorrowIndex;
    return (borrow + PRECISION - 1n) / PRECISION;
  }

  /** Owners with an entry in market `tokenId` of `ledger` (suppliers) or `accounts` (borrowers), in big map order. */
  owners(which: 'ledger' | 'accounts', tokenId: number): string[] {
    const entries = this.book.bigMap(this.state[which])?.entries.values() ?? [];
    return [...entries]
      .map((e) => combItems(e.key))
      .filter(([, id]) => intOf(id) === BigInt(tokenId))
      .map(([owner]) => stringOf(owner));
  }

  /** Markets the owner has a borrow in (Yupana's `borrows[owner]`). */
  borrowed(owner: string): number[] {
    return this.markets.map((_, id) => id).filter((id) => this.account(owner, id).borrow > 0n);
  }

  /** Underlying that suppliers own: liquidity + borrows − reserves (Yupana's getLiquidity). */
  /** What the market holds of its token to lend or pay out (Yupana's totalLiquidF, in raw units). */
  cash(tokenId: number): bigint {
    return this.state.tokens[tokenId].totalLiquidF / PRECISION;
  }

  liquidity(tokenId: number): bigint {
    const m = this.state.tokens[tokenId];
    return m.totalLiquidF + m.totalBorrowsF - m.totalReservesF;
  }

  /**
   * `updateInterest tokenId`: grows the market's borrows, reserves and index by the rate since its last update
   * (Yupana's accrueInterest).
   */
  updateInterest(call: CallContext, tokenId: number): { value: Micheline; grown: number } {
    const m = this.state.tokens[tokenId];
    const now = seconds(call);
    let next: MarketState = { ...m, interestUpdateTime: now };
    if (m.totalBorrowsF > 0n) {
      const simpleInterestFactorF = borrowRateF(m) * (now - m.interestUpdateTime);
      const interestAccumulatedF = (simpleInterestFactorF * m.totalBorrowsF) / PRECISION;
      next = {
        ...next,
        totalBorrowsF: m.totalBorrowsF + interestAccumulatedF,
        totalReservesF: (interestAccumulatedF * RESERVE_FACTOR_F) / PRECISION + m.totalReservesF,
        borrowIndex: (simpleInterestFactorF * m.borrowIndex) / PRECISION + m.borrowIndex,
      };
    }
    this.setMarket(tokenId, next);
    return { value: int(tokenId), grown: 0 };
  }

  apply(
    call: CallContext,
    diff: LazyStorageDiff,
    user: string,
    action: LendingAction,
    tokenId: number,
    amount: bigint,
  ): { value: Micheline; grown: number } {
    const token = this.markets[tokenId];
    const m = this.state.tokens[tokenId];
    let grown = 0;
    switch (action) {
      case 'mint': {
        const shares =
          m.totalSupplyF === 0n ? amount * PRECISION : (amount * PRECISION * m.totalSupplyF) / this.liquidity(tokenId);
        grown = this.supplied.add(diff, user, shares, tokenId);
        this.setMarket(tokenId, {
          ...m,
          totalSupplyF: m.totalSupplyF + shares,
          totalLiquidF: m.totalLiquidF + amount * PRECISION,
        });
        token.transfer(call, this.address, user, this.address, amount);
        break;
      }
      case 'redeem': {
        // Amount 0 redeems every yToken the user holds.
        const redeemed =
          amount === 0n
            ? (this.supplied.get(user, tokenId) * this.liquidity(tokenId)) / m.totalSupplyF / PRECISION
            : amount;
        const burn = (redeemed * PRECISION * m.totalSupplyF) / this.liquidity(tokenId);
        grown = this.supplied.add(diff, user, -burn, tokenId);
        this.setMarket(tokenId, {
          ...m,
          totalSupplyF: sub(m.totalSupplyF, burn, 'supply'),
          totalLiquidF: sub(m.totalLiquidF, redeemed * PRECISION, 'liquidity'),
        });
        grown += this.applyInterest(call, diff, user, this.borrowed(user));
        token.transfer(call, this.address, this.address, user, redeemed);
        break;
      }
      case 'borrow': {
        grown = this.applyInterest(call, diff, user, [...new Set([...this.borrowed(user), tokenId])]);
        this.setAccount(diff, user, tokenId, this.account(user, tokenId).borrow + amount * PRECISION);
        this.setMarket(tokenId, {
          ...m,
          totalBorrowsF: m.totalBorrowsF + amount * PRECISION,
          totalLiquidF: sub(m.totalLiquidF, amount * PRECISION, 'liquidity'),
        });
        token.transfer(call, this.address, this.address, user, amount);
        break;
      }
      case 'repay': {
        grown = this.applyInterest(call, diff, user, this.borrowed(user));
        // Amount 0 repays the whole borrow; the transfer rounds up.
        const borrow = this.account(user, tokenId).borrow;
        const repayF = amount === 0n ? borrow : amount * PRECISION;
        this.setAccount(diff, user, tokenId, sub(borrow, repayF, 'borrow'));
        this.setMarket(tokenId, {
          ...m,
          totalBorrowsF: sub(m.totalBorrowsF, repayF, 'total borrows'),
          totalLiquidF: m.totalLiquidF + repayF,
        });
        token.transfer(call, this.address, user, this.address, (repayF + PRECISION - 1n) / PRECISION);
        break;
      }
    }
    const third =
      action === 'mint' || action === 'redeem'
        ? int(amount - amount / 100n)
        : str(new Date(Date.parse(call.ctx.timestamp) + 600_000).toISOString().replace('.000Z', 'Z'));
    return { value: pair(int(tokenId), int(amount), third), grown };
  }

  /**
   * The yTokens a liquidation of `amount` seizes for the liquidator and for the reserves (Yupana's seizeTokensF,
   * reserveTokensF).
   */
  seizure(l: Omit<Liquidation, 'borrower'>): { seize: bigint; reserve: bigint } {
    const [b, c] = [this.state.tokens[l.borrowToken], this.state.tokens[l.collateralToken]];
    const liqAmountF = l.amount * PRECISION;
    const seize =
      (liqAmountF * LIQ_INCENTIVE_F * b.lastPrice * c.totalSupplyF) /
      (this.liquidity(l.collateralToken) * PRECISION * c.lastPrice);
    return { seize, reserve: (liqAmountF * c.liquidReserveRateF * b.lastPrice) / (PRECISION * c.lastPrice) };
  }

  /** Most the liquidator may repay: half the borrow (Yupana's close factor), whole units. */
  maxClose(borrower: string, tokenId: number): bigint {
    return (this.account(borrower, tokenId).borrow * CLOSE_FACTOR_F) / PRECISION / PRECISION;
  }

  /**
   * `liquidate`: repays part of the borrower's debt and moves collateral yTokens to the liquidator and the reserves. No
   * health check (the model has no collateral rule).
   */
  liquidate(
    call: CallContext,
    diff: LazyStorageDiff,
    liquidator: string,
    l: Liquidation,
  ): { value: Micheline; grown: number } {
    let grown = this.applyInterest(call, diff, l.borrower, this.borrowed(l.borrower));
    const liqAmountF = l.amount * PRECISION;
    if (liqAmountF > (this.account(l.borrower, l.borrowToken).borrow * CLOSE_FACTOR_F) / PRECISION)
      throw new Error('sandbox: yupana liquidation above the close factor');
    this.setAccount(
      diff,
      l.borrower,
      l.borrowToken,
      sub(this.account(l.borrower, l.borrowToken).borrow, liqAmountF, 'borrow'),
    );
    const b = this.state.tokens[l.borrowToken];
    this.setMarket(l.borrowToken, {
      ...b,
      totalBorrowsF: sub(b.totalBorrowsF, liqAmountF, 'total borrows'),
      totalLiquidF: b.totalLiquidF + liqAmountF,
    });
    this.markets[l.borrowToken].transfer(call, this.address, liquidator, this.address, l.amount);
    const { seize, reserve } = this.seizure(l);
    this.supplied.add(diff, l.borrower, -(seize + reserve), l.collateralToken);
    grown += this.supplied.add(diff, liquidator, seize, l.collateralToken);
    const c = this.state.tokens[l.collateralToken];
    this.setMarket(l.collateralToken, { ...c, totalReservesF: c.totalReservesF + reserve });
    // Yupana writes the liquidator's account of the collateral market back as it was.
    const mine = this.account(liquidator, l.collateralToken);
    grown += this.writeAccount(diff, liquidator, l.collateralToken, mine.borrow, mine.lastBorrowIndex);
    const deadline = str(new Date(Date.parse(call.ctx.timestamp) + 600_000).toISOString().replace('.000Z', 'Z'));
    return {
      value: pair(
        int(l.borrowToken),
        int(l.collateralToken),
        str(l.borrower),
        int(l.amount),
        int(seize / PRECISION),
        deadline,
      ),
      grown,
    };
  }

  /** TZIP-12 `transfer` of `amount` yTokens (Yupana moves amount × 10^18 of its ledger). */
  transfer(
    diff: LazyStorageDiff,
    from: string,
    to: string,
    tokenId: number,
    amount: bigint,
  ): { value: Micheline; grown: number } {
    this.supplied.add(diff, from, -amount * PRECISION, tokenId);
    const grown = this.supplied.add(diff, to, amount * PRECISION, tokenId);
    return { value: [pair(str(from), [pair(str(to), int(tokenId), int(amount))])], grown };
  }

  /**
   * Brings the owner's borrows in these markets to their borrow index (Yupana's applyInterestToBorrows; the index must
   * be updated in this block).
   */
  private applyInterest(call: CallContext, diff: LazyStorageDiff, user: string, tokenIds: number[]): number {
    let grown = 0;
    for (const id of tokenIds) {
      const market = this.state.tokens[id];
      if (market.interestUpdateTime < seconds(call))
        throw new Error(`sandbox: yupana market ${id} needs updateInterest first`);
      const a = this.account(user, id);
      const borrow = a.lastBorrowIndex === 0n ? a.borrow : (a.borrow * market.borrowIndex) / a.lastBorrowIndex;
      grown += this.writeAccount(diff, user, id, borrow, market.borrowIndex);
    }
    return grown;
  }

  private setAccount(diff: LazyStorageDiff, user: string, tokenId: number, borrow: bigint): void {
    this.writeAccount(diff, user, tokenId, borrow, this.state.tokens[tokenId].borrowIndex);
  }

  private writeAccount(diff: LazyStorageDiff, user: string, tokenId: number, borrow: bigint, index: bigint): number {
    const fresh = bigMapGet(this.book, this.state.accounts, pair(str(user), int(tokenId))) === undefined ? 1 : 0;
    diff.update(this.state.accounts, pair(str(user), int(tokenId)), pair([], int(borrow), int(index)));
    return fresh;
  }

  private setMarket(tokenId: number, m: MarketState): void {
    const s = this.state;
    this.book.setState<LendingState>(this.address, { ...s, tokens: s.tokens.map((x, i) => (i === tokenId ? m : x)) });
  }
}

/** The jump-rate model's borrow rate per second ×10^18 (yupana-protocol-core interestRate calcBorrowRate). */
function borrowRateF(m: MarketState): bigint {
  const denominator = m.totalLiquidF + m.totalBorrowsF - m.totalReservesF;
  const utilizationRateF = denominator === 0n ? 0n : (PRECISION * m.totalBorrowsF) / denominator;
  if (utilizationRateF <= RATE.kinkF) return RATE.baseRateF + (utilizationRateF * RATE.multiplierF) / PRECISION;
  return (
    (RATE.kinkF * RATE.multiplierF) / PRECISION +
    RATE.baseRateF +
    ((utilizationRateF - RATE.kinkF) * RATE.jumpMultiplierF) / PRECISION
  );
}
