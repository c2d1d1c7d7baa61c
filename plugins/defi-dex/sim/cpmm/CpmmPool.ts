import {
  type AccountBook,
  addressBytes,
  bool,
  BalanceUpdates,
  bigMapGet,
  CallContext,
  type ContractModel,
  entrypoints,
  type Fa12Token,
  int,
  type LazyStorageDiff,
  type Micheline,
  NULL_ADDRESS,
  pair,
  pairT,
  prim,
  script,
  str,
  tAddress,
  tBigMap,
  tBool,
  tBytes,
  tMutez,
  tNat,
  tString,
  tTimestamp,
  tUnit,
} from '../../../../framework/sandbox/extension';
import { flatCurveOutput } from './flatCurve';
import { PendingDiff } from './PendingDiff';

export type PoolFlavor =
  'lb_cpmm' | 'quipuswap_v1' | 'plenty_volatile' | 'vortex' | 'youves_flat' | 'dexter_v1' | 'spicy_pair';

interface PoolState {
  /** Reserve of the token side (token A for Plenty, the token for Youves). */
  tokenPool: bigint;
  /** Tez reserve (LB, QuipuSwap) or token B reserve (Plenty, Youves' cash). */
  otherPool: bigint;
  lqtTotal: bigint;
  /** QuipuSwap, Dexter v1 and Spicy keep LP shares in their own ledger big map. */
  shares?: number;
  /** Vortex's `history` and `user_investments` big maps (allocated, left empty). */
  vortexMaps?: [number, number];
}

export interface PoolCall {
  entrypoint: string;
  value: Micheline;
  /** Tez attached to the call. */
  amount: bigint;
}

/** A call's deadline: 20 minutes after the block time. */
export const deadline = (ts: string) => str(new Date(Date.parse(ts) + 20 * 60_000).toISOString().replace('.000Z', 'Z'));

/**
 * Constant-product pools with the real entrypoint and parameter shapes of Liquidity Baking (Sirius),
 * QuipuSwap v1 (tez/FA1.2), Plenty volatile pools (FA1.2/FA1.2), Dexter v1 (tez/FA1.2, shares in its
 * `accounts`), Vortex (LB's parameters, a storage of its own) and Spicy pairs (two tokens, shares in
 * the pair's own ledger, paid in by their router). Reserves move by the protocols' own formulas (fees
 * 0.1%+0.1% burn, 0.3%, 1/lpFee, 0.3%, 0.28%, 997/1000) and tokens move through internal FA1.2 calls.
 * A Youves flat CFMM (token/cash, FA1.2/FA1.2) has the same liquidity rules and trades on the flat
 * curve (`flatCurve.ts`). Vortex and Youves send part of the fee out of the pool, to `feeRecipient`
 * (Vortex's `reserve`, Youves' `rewardRecipient`), as their contracts do (`vortexReserveFee`, `flatSwap`).
 */
export class CpmmPool implements ContractModel {
  readonly service = 'dex';
  readonly code: Micheline;

  constructor(
    private readonly book: AccountBook,
    readonly address: string,
    readonly role: PoolFlavor,
    readonly token: Fa12Token,
    /**
     * LB/Plenty/Vortex/Youves: the LP token contract (mintOrBurn); Plenty, Youves: also token B (cash) via `tokenB`.
     */
    readonly lqt: Fa12Token | undefined,
    readonly tokenB: Fa12Token | undefined,
    /** Who transfers the input tokens to a two-token pool: the pool itself, or the router that calls it (Spicy). */
    readonly payer = address,
    /** Where Vortex and Youves flat pools send their share of the fee (an account the book knows). */
    readonly feeRecipient = address,
  ) {
    this.code = script(PARAMETERS[role], STORAGES[role]);
  }

  get state(): PoolState {
    return this.book.state<PoolState>(this.address);
  }

  private setState(s: PoolState): void {
    this.book.setState<PoolState>(this.address, s);
  }

  init(diff: LazyStorageDiff, tokenPool: bigint, otherPool: bigint, lqtTotal: bigint): void {
    const shares =
      this.role === 'quipuswap_v1' || this.role === 'spicy_pair'
        ? diff.alloc(tAddress(), tNat())
        : this.role === 'dexter_v1'
          ? diff.alloc(tAddress(), DEXTER_ACCOUNT)
          : undefined;
    const vortexMaps: [number, number] | undefined =
      this.role === 'vortex' ? [diff.alloc(tString(), tNat()), diff.alloc(tAddress(), VORTEX_INVESTMENT)] : undefined;
    this.setState({ tokenPool, otherPool, lqtTotal, shares, vortexMaps });
  }

  storage(): Micheline {
    const s = this.state;
    switch (this.role) {
      case 'lb_cpmm':
        // The node prints LB's right-comb storage as a flat sequence (optimized form).
        return [
          int(s.tokenPool),
          int(s.otherPool),
          int(s.lqtTotal),
          addressBytes(this.token.address),
          addressBytes((this.lqt as Fa12Token).address),
        ];
      case 'quipuswap_v1':
        return pair(
          int(s.otherPool),
          int(s.tokenPool),
          int(s.lqtTotal),
          addressBytes(this.token.address),
          int(s.shares ?? 0),
        );
      case 'plenty_volatile':
        return pair(
          int(s.tokenPool),
          int(s.otherPool),
          int(s.lqtTotal),
          addressBytes(this.token.address),
          addressBytes((this.tokenB as Fa12Token).address),
          addressBytes((this.lqt as Fa12Token).address),
        );
      case 'dexter_v1': {
        const flags = pair(bool(false), bool(false), int(s.lqtTotal));
        return pair(
          int(s.shares ?? 0),
          pair(
            flags,
            pair(
              pair(addressBytes(this.address), addressBytes(this.token.address)),
              pair(int(s.tokenPool), int(s.otherPool)),
            ),
          ),
        );
      }
      case 'youves_flat': {
        const { cashMultiplier, tokenMultiplier } = this.multipliers();
        const [lqt, cash] = [(this.lqt as Fa12Token).address, (this.tokenB as Fa12Token).address];
        const fee = pair(int(YOUVES_FEE.numerator), int(YOUVES_FEE.denominator));
        const addresses = [this.token.address, cash, lqt].map(addressBytes);
        const admins = [this.address, this.address, this.feeRecipient].map(addressBytes);
        const pools = [s.tokenPool, s.otherPool, s.lqtTotal, 0n].map(int);
        return pair(...pools, ...addresses, int(cashMultiplier), int(tokenMultiplier), fee, ...admins);
      }
      case 'vortex': {
        const [history, investments] = s.vortexMaps ?? [0, 0];
        const addresses = [this.address, this.token.address, (this.lqt as Fa12Token).address].map(addressBytes);
        const [pools, maps] = [[s.tokenPool, s.otherPool, s.lqtTotal].map(int), [int(history), int(investments)]];
        const flags = [bool(false), bool(false)];
        return pair(...pools, ...flags, ...addresses, ...maps, addressBytes(this.feeRecipient));
      }
      case 'spicy_pair':
        // FA1.2 tokens: `token_id` None.
        return pair(
          pair(addressBytes(this.token.address), prim('None')),
          pair(addressBytes((this.tokenB as Fa12Token).address), prim('None')),
          int(s.tokenPool),
          int(s.otherPool),
          int(s.lqtTotal),
          int(s.shares ?? 0),
        );
    }
  }

  /** Liquidity-baking subsidy credited to the CPMM (the implicit `%default` call of every block). */
  subsidy(updates: BalanceUpdates, amount: bigint): Micheline {
    updates.transfer(
      (b, c) => b.minted('subsidy', c),
      (b, c) => b.contract(this.address, c),
      amount,
    );
    this.setState({ ...this.state, otherPool: this.state.otherPool + amount });
    return this.storage();
  }

  /** Swap `amountIn` from `user`; `sellToken` picks the direction. Applies it and returns the call. */
  swap(call: CallContext, user: string, sellToken: boolean, amountIn: bigint, transfer: BalanceUpdates): PoolCall {
    const s = this.state;
    const ts = call.ctx.timestamp;
    if (this.role === 'youves_flat') return this.flatSwap(call, user, sellToken, amountIn);
    if (this.tokenB) {
      const [inPool, outPool] = sellToken ? [s.tokenPool, s.otherPool] : [s.otherPool, s.tokenPool];
      const fee = amountIn / 290n;
      const out =
        this.role === 'spicy_pair'
          ? (amountIn * 997n * outPool) / (inPool * 1000n + amountIn * 997n)
          : ((amountIn - fee) * outPool) / (inPool + amountIn - fee);
      const [tin, tout] = sellToken ? [this.token, this.tokenB] : [this.tokenB, this.token];
      tin.transfer(call, this.payer, user, this.address, amountIn);
      tout.transfer(call, this.address, this.address, user, out);
      this.setState(
        sellToken
          ? { ...s, tokenPool: s.tokenPool + amountIn, otherPool: s.otherPool - out }
          : { ...s, otherPool: s.otherPool + amountIn, tokenPool: s.tokenPool - out },
      );
      return this.role === 'spicy_pair'
        ? {
            entrypoint: 'swap',
            amount: 0n,
            value: pair(int(sellToken ? 0n : out), int(sellToken ? out : 0n), str(user), prim('None')),
          }
        : {
            entrypoint: 'Swap',
            amount: 0n,
            value: pair(pair(int(out), str(user)), pair(str(tout.address), pair(int(0), int(amountIn)))),
          };
    }
    const lb = this.role === 'lb_cpmm';
    // LB, Vortex and Dexter v1 take Dexter's calls (xtzToToken's parameter is the same in all three).
    const dexterLike = lb || this.role === 'vortex' || this.role === 'dexter_v1';
    const [num, den] = lb ? [999n, 1000n] : this.role === 'vortex' ? [9972n, 10000n] : [997n, 1000n];
    if (!sellToken) {
      // Tez in: LB burns 0.1% of the tez first, QuipuSwap keeps it all in the pool.
      transfer.transfer(
        (b, c) => b.contract(user, c),
        (b, c) => b.contract(this.address, c),
        amountIn,
      );
      const burn = lb ? lbBurn(amountIn) : 0n;
      const net = amountIn - burn;
      const out = (net * num * s.tokenPool) / (s.otherPool * den + net * num);
      const reserve = this.vortexReserveFee(false, amountIn);
      this.token.transfer(call, this.address, this.address, user, out);
      if (burn > 0n) call.pushTezTransfer(this.address, NULL_ADDRESS, burn);
      if (reserve > 0n) call.pushTezTransfer(this.address, this.feeRecipient, reserve);
      this.setState({ ...s, otherPool: s.otherPool + net - reserve, tokenPool: s.tokenPool - out });
      return dexterLike
        ? { entrypoint: 'xtzToToken', amount: amountIn, value: pair(str(user), int(out), deadline(ts)) }
        : { entrypoint: 'tezToTokenPayment', amount: amountIn, value: pair(int(out), str(user)) };
    }
    const gross = (amountIn * num * s.otherPool) / (s.tokenPool * den + amountIn * num);
    const burn = lb ? lbBurn(gross) : 0n;
    const reserve = this.vortexReserveFee(true, amountIn);
    this.token.transfer(call, this.address, user, this.address, amountIn);
    call.pushTezTransfer(this.address, user, gross - burn);
    if (burn > 0n) call.pushTezTransfer(this.address, NULL_ADDRESS, burn);
    if (reserve > 0n) call.pushTezTransfer(this.address, this.feeRecipient, reserve);
    this.setState({ ...s, tokenPool: s.tokenPool + amountIn, otherPool: s.otherPool - gross - reserve });
    if (this.role === 'dexter_v1')
      return {
        entrypoint: 'tokenToXtz',
        amount: 0n,
        value: pair(pair(str(user), str(user)), pair(int(amountIn), int(gross), deadline(ts))),
      };
    return dexterLike
      ? { entrypoint: 'tokenToXtz', amount: 0n, value: pair(str(user), int(amountIn), int(gross - burn), deadline(ts)) }
      : { entrypoint: 'tokenToTezPayment', amount: 0n, value: pair(pair(int(amountIn), int(gross)), str(user)) };
  }

  /** The tokens a deposit of `other` brings: at the reserves' ratio rounded up; into an empty pool, `opening`. */
  tokensFor(other: bigint, opening = 0n): bigint {
    const s = this.state;
    return s.lqtTotal === 0n ? opening : (other * s.tokenPool + s.otherPool - 1n) / s.otherPool;
  }

  /**
   * Deposit `other` (tez, or token B for Plenty) plus the matching token amount; mints LP shares. The
   * first deposit into an empty pool brings `other` and `opening` tokens (its price is the depositor's)
   * and mints as many shares as `other` (Dexter's rule for its first `addLiquidity`).
   */
  addLiquidity(
    call: CallContext,
    user: string,
    other: bigint,
    transfer: BalanceUpdates,
    opening = 0n,
  ): PoolCall & { grown: number } {
    const s = this.state;
    const tokens = this.tokensFor(other, opening);
    const minted = s.lqtTotal === 0n ? other : (other * s.lqtTotal) / s.otherPool;
    let grown = 0;
    if (this.tokenB) {
      this.token.transfer(call, this.payer, user, this.address, tokens);
      this.tokenB.transfer(call, this.payer, user, this.address, other);
      if (this.lqt) this.lqt.mintOrBurn(call, this.address, user, minted);
      else grown = this.moveShares(call, user, minted);
    } else {
      transfer.transfer(
        (b, c) => b.contract(user, c),
        (b, c) => b.contract(this.address, c),
        other,
      );
      this.token.transfer(call, this.address, user, this.address, tokens);
      if (this.lqt) this.lqt.mintOrBurn(call, this.address, user, minted);
      else grown = this.moveShares(call, user, minted);
    }
    this.setState({
      ...this.state,
      tokenPool: s.tokenPool + tokens,
      otherPool: s.otherPool + other,
      lqtTotal: s.lqtTotal + minted,
    });
    const ts = call.ctx.timestamp;
    switch (this.role) {
      case 'lb_cpmm':
      case 'vortex':
        return {
          grown,
          entrypoint: 'addLiquidity',
          amount: other,
          value: pair(str(user), int(minted), int(tokens), deadline(ts)),
        };
      case 'quipuswap_v1':
        return { grown, entrypoint: 'investLiquidity', amount: other, value: int(minted) };
      case 'dexter_v1':
        return {
          grown,
          entrypoint: 'addLiquidity',
          amount: other,
          value: pair(pair(str(user), int(minted)), pair(int(tokens), deadline(ts))),
        };
      case 'plenty_volatile':
        return { grown, entrypoint: 'AddLiquidity', amount: 0n, value: pair(str(user), int(tokens), int(other)) };
      case 'youves_flat':
        return {
          grown,
          entrypoint: 'addLiquidity',
          amount: 0n,
          value: pair(str(user), int(minted), int(tokens), int(other), deadline(ts)),
        };
      case 'spicy_pair':
        return { grown, entrypoint: 'add_liquidity', amount: 0n, value: str(user) };
    }
  }

  /**
   * Burn `shares` LP shares of `holder` (`user`, or the pool for Spicy: shares sent to it first) for the pro-rata
   * reserves, paid to `user`.
   */
  removeLiquidity(call: CallContext, user: string, shares: bigint, holder = user): PoolCall & { grown: number } {
    const s = this.state;
    const tokens = (shares * s.tokenPool) / s.lqtTotal;
    const other = (shares * s.otherPool) / s.lqtTotal;
    let grown = 0;
    if (this.lqt) this.lqt.mintOrBurn(call, this.address, holder, -shares);
    else grown = this.moveShares(call, holder, -shares);
    this.token.transfer(call, this.address, this.address, user, tokens);
    if (this.tokenB) this.tokenB.transfer(call, this.address, this.address, user, other);
    else call.pushTezTransfer(this.address, user, other);
    this.setState({
      ...this.state,
      tokenPool: s.tokenPool - tokens,
      otherPool: s.otherPool - other,
      lqtTotal: s.lqtTotal - shares,
    });
    const ts = call.ctx.timestamp;
    switch (this.role) {
      case 'lb_cpmm':
      case 'vortex':
        return {
          grown,
          entrypoint: 'removeLiquidity',
          amount: 0n,
          value: pair(str(user), int(shares), int(other), int(tokens), deadline(ts)),
        };
      case 'dexter_v1':
        return {
          grown,
          entrypoint: 'removeLiquidity',
          amount: 0n,
          value: pair(pair(str(user), str(user), int(shares)), pair(int(other), int(tokens), deadline(ts))),
        };
      case 'quipuswap_v1':
        return {
          grown,
          entrypoint: 'divestLiquidity',
          amount: 0n,
          value: pair(pair(int(other), int(tokens)), int(shares)),
        };
      case 'plenty_volatile':
        return {
          grown,
          entrypoint: 'RemoveLiquidity',
          amount: 0n,
          value: pair(pair(int(shares), str(user)), pair(int(tokens), int(other))),
        };
      case 'youves_flat':
        return {
          grown,
          entrypoint: 'removeLiquidity',
          amount: 0n,
          value: pair(str(user), int(shares), int(other), int(tokens), deadline(ts)),
        };
      case 'spicy_pair':
        return { grown, entrypoint: 'remove_liquidity', amount: 0n, value: str(user) };
    }
  }

  /**
   * Vortex's `reserve` share of the 0.28% fee, in tez, which the pool sends out of its tez reserve (none
   * for the other flavors): 3/10000 of the tez paid in, or the tez 3/10000 of the tokens sold buy at the
   * reserves without fee. Source: the Vortex FA1.2 factory's exchange code (`xtzToToken`, `tokenToXtz`),
   * stove-labs/arbitrage-bot integration-tests/integration-tests/vortex/contracts/contract.tz at
   * 52ad69b29dfb7558fa7691c24141c882ef665529.
   */
  private vortexReserveFee(sellToken: boolean, amountIn: bigint): bigint {
    const s = this.state;
    if (this.role !== 'vortex') return 0n;
    if (!sellToken) return (3n * amountIn) / 10000n;
    return (3n * amountIn * s.otherPool) / (10000n * s.tokenPool + 3n * amountIn);
  }

  /**
   * A Youves flat-curve trade: token in for cash out (`sellToken`) or cash in for token out. As the
   * contract (youves-com/youves-smart-contract contracts/swap/fa12_flat_cfmm.mligo `cash_to_token`,
   * `token_to_cash` at 750af577d178a5778d5b49ce9127a94913c75e23): of the curve's output W the user gets
   * ⌊numerator·W/denominator⌋, `rewardRecipient` half the rest rounded down, the pool keeps the remainder.
   */
  private flatSwap(call: CallContext, user: string, sellToken: boolean, amountIn: bigint): PoolCall {
    const s = this.state;
    const cash = this.tokenB as Fa12Token;
    const { cashMultiplier, tokenMultiplier } = this.multipliers();
    const [inPool, outPool, mIn, mOut] = sellToken
      ? [s.tokenPool, s.otherPool, tokenMultiplier, cashMultiplier]
      : [s.otherPool, s.tokenPool, cashMultiplier, tokenMultiplier];
    const w = flatCurveOutput(inPool * mIn, outPool * mOut, amountIn * mIn) / mOut;
    const out = (YOUVES_FEE.numerator * w) / YOUVES_FEE.denominator;
    const reward = (w - out) / 2n;
    const [tin, tout] = sellToken ? [this.token, cash] : [cash, this.token];
    tin.transfer(call, this.address, user, this.address, amountIn);
    tout.transfer(call, this.address, this.address, user, out);
    tout.transfer(call, this.address, this.address, this.feeRecipient, reward);
    const paid = out + reward;
    this.setState(
      sellToken
        ? { ...s, tokenPool: s.tokenPool + amountIn, otherPool: s.otherPool - paid }
        : { ...s, otherPool: s.otherPool + amountIn, tokenPool: s.tokenPool - paid },
    );
    const ts = call.ctx.timestamp;
    return sellToken
      ? { entrypoint: 'tokenToCash', amount: 0n, value: pair(str(user), int(amountIn), int(out), deadline(ts)) }
      : { entrypoint: 'cashToToken', amount: 0n, value: pair(str(user), int(out), int(amountIn), deadline(ts)) };
  }

  /** Youves' multipliers bring both tokens to the same precision, so the flat curve pegs them one to one. */
  private multipliers(): { cashMultiplier: bigint; tokenMultiplier: bigint } {
    const gap = (this.tokenB as Fa12Token).decimals - this.token.decimals;
    return { cashMultiplier: 10n ** BigInt(Math.max(0, -gap)), tokenMultiplier: 10n ** BigInt(Math.max(0, gap)) };
  }

  /** A share balance as the pool's own ledger stores it (Dexter v1 with an empty allowance map). */
  ledgerValue(shares: bigint): Micheline {
    return this.role === 'dexter_v1' ? pair(int(shares), []) : int(shares);
  }

  /** LP shares `user` holds (in the pool's own ledger or in the LP token). */
  sharesOf(user: string): bigint {
    if (this.lqt) return this.lqt.balanceOf(user);
    const v = bigMapGet(this.book, this.state.shares ?? -1, str(user));
    // Dexter v1's accounts hold (balance, allowances).
    const balance = v && 'prim' in v && v.prim === 'Pair' ? v.args?.[0] : v;
    return balance && 'int' in balance ? BigInt(balance.int) : 0n;
  }

  /** Diff of the pool's own ledger within the current call (QuipuSwap shares). */
  readonly pending = new PendingDiff();

  /** Moves shares of the pool's own ledger (an FA2 `transfer` of the pair, Spicy); returns the entries created. */
  transferShares(call: CallContext, from: string, to: string, amount: bigint): number {
    return this.moveShares(call, from, -amount) + this.moveShares(call, to, amount);
  }

  private moveShares(call: CallContext, user: string, delta: bigint): number {
    const before = this.sharesOf(user);
    const after = before + delta;
    this.pending
      .of(call)
      .update(this.state.shares as number, str(user), after === 0n ? undefined : this.ledgerValue(after));
    return before === 0n && after > 0n ? 1 : 0;
  }
}

const DEADLINE = tTimestamp('%deadline');
/** Liquidity Baking's parameter, which Vortex shares. */
const DEXTER_2_PARAMETER: Array<[string, Micheline]> = [
  ['addLiquidity', pairT(tAddress('%owner'), tNat('%minLqtMinted'), tNat('%maxTokensDeposited'), DEADLINE)],
  ['default', tUnit()],
  [
    'removeLiquidity',
    pairT(tAddress('%to'), tNat('%lqtBurned'), tMutez('%minXtzWithdrawn'), tNat('%minTokensWithdrawn'), DEADLINE),
  ],
  [
    'tokenToToken',
    pairT(tAddress('%outputDexterContract'), tNat('%minTokensBought'), tAddress('%to'), tNat('%tokensSold'), DEADLINE),
  ],
  ['tokenToXtz', pairT(tAddress('%to'), tNat('%tokensSold'), tMutez('%minXtzBought'), DEADLINE)],
  ['xtzToToken', pairT(tAddress('%to'), tNat('%minTokensBought'), DEADLINE)],
];
/** Dexter v1's `accounts` value: the balance and the allowances of spenders. */
const DEXTER_ACCOUNT = {
  prim: 'pair',
  args: [tNat(':balance'), { prim: 'map', args: [tAddress(':spender'), tNat(':allowance')] }],
};
/** Dexter v1's parameter (its script annotates fields with `:` type annotations). */
const DEXTER_V1_PARAMETER = entrypoints(
  ['approve', pairT(tAddress(':spender'), tNat(':allowance'), tNat(':currentAllowance'))],
  [
    'addLiquidity',
    {
      prim: 'pair',
      args: [
        pairT(tAddress(':owner'), tNat(':minLqtMinted')),
        pairT(tNat(':maxTokensDeposited'), tTimestamp(':deadline')),
      ],
    },
  ],
  [
    'removeLiquidity',
    {
      prim: 'pair',
      args: [
        pairT(tAddress(':owner'), tAddress(':to'), tNat(':lqtBurned')),
        pairT(tMutez(':minXtzWithdrawn'), tNat(':minTokensWithdrawn'), tTimestamp(':deadline')),
      ],
    },
  ],
  ['xtzToToken', pairT(tAddress(':to'), tNat(':minTokensBought'), tTimestamp(':deadline'))],
  [
    'tokenToXtz',
    {
      prim: 'pair',
      args: [
        pairT(tAddress(':owner'), tAddress(':to')),
        pairT(tNat(':tokensSold'), tMutez(':minXtzBought'), tTimestamp(':deadline')),
      ],
    },
  ],
  [
    'tokenToToken',
    {
      prim: 'pair',
      args: [
        pairT(tAddress(':outputDexterContract'), tNat(':minTokensBought'), tAddress(':owner')),
        pairT(tAddress(':to'), tNat(':tokensSold'), tTimestamp(':deadline')),
      ],
    },
  ],
  ['updateTokenPool', { prim: 'key_hash' }],
  ['updateTokenPoolInternal', tNat()],
  ['setBaker', { prim: 'pair', args: [{ prim: 'option', args: [{ prim: 'key_hash' }] }, { prim: 'bool' }] }],
  ['setManager', tAddress()],
  ['default', tUnit()],
);
/**
 * What the LB CPMM burns of a tez amount: the amount less its 999/1000 rounded down, so the burn rounds up
 * (the chain burned 4,896 of 4,895,283). Source: the protocol's model of the contract (`cpmm.mligo`),
 * tezos/tezos-mirror src/proto_alpha/lib_protocol/test/helpers/cpmm_logic.ml (`Simulate_raw.tokenToXtz`,
 * `xtzToToken`) at 5e364ad0f012700c22369f2678d3eeae0ae84776.
 */
export function lbBurn(mutez: bigint): bigint {
  return mutez - (mutez * 999n) / 1000n;
}

/** The sandbox's Youves flat pool keeps 0.15% of the curve's output (the rate on crunchy's fee table). */
const YOUVES_FEE = { numerator: 9985n, denominator: 10000n };
/** The value of Vortex's `user_investments` big map (a deposit's tez and tokens, added or removed). */
const VORTEX_INVESTMENT = pairT(tMutez('%xtz'), tNat('%token'), {
  prim: 'or',
  annots: ['%direction'],
  args: [
    { prim: 'unit', annots: ['%aDD'] },
    { prim: 'unit', annots: ['%rEMOVE'] },
  ],
});

const PARAMETERS: Record<PoolFlavor, Micheline> = {
  lb_cpmm: entrypoints(...DEXTER_2_PARAMETER),
  vortex: entrypoints(...DEXTER_2_PARAMETER, ['updateTokenPool', tUnit()], ['updateTokenPoolInternal', tNat()]),
  dexter_v1: DEXTER_V1_PARAMETER,
  youves_flat: entrypoints(
    [
      'addLiquidity',
      pairT(tAddress('%owner'), tNat('%minLqtMinted'), tNat('%maxTokensDeposited'), tNat('%cashDeposited'), DEADLINE),
    ],
    ['cashToToken', pairT(tAddress('%to'), tNat('%minTokensBought'), tNat('%cashSold'), DEADLINE)],
    ['default', tUnit()],
    [
      'removeLiquidity',
      pairT(tAddress('%to'), tNat('%lqtBurned'), tNat('%minCashWithdrawn'), tNat('%minTokensWithdrawn'), DEADLINE),
    ],
    ['tokenToCash', pairT(tAddress('%to'), tNat('%tokensSold'), tNat('%minCashBought'), DEADLINE)],
    ['updatePools', tUnit()],
    ['updateTokenPoolInternal', tNat()],
    ['updateCashPoolInternal', tNat()],
  ),
  quipuswap_v1: entrypoints(
    ['tezToTokenPayment', pairT(tNat('%min_out'), tAddress('%receiver'))],
    ['tokenToTezPayment', { prim: 'pair', args: [pairT(tNat('%amount'), tNat('%min_out')), tAddress('%receiver')] }],
    ['investLiquidity', tNat()],
    ['divestLiquidity', { prim: 'pair', args: [pairT(tNat('%min_tez'), tNat('%min_tokens')), tNat('%shares')] }],
    ['withdrawProfit', tAddress()],
    ['default', tUnit()],
  ),
  plenty_volatile: entrypoints(
    ['AddLiquidity', pairT(tAddress('%recipient'), tNat('%token1_max'), tNat('%token2_max'))],
    [
      'RemoveLiquidity',
      {
        prim: 'pair',
        args: [pairT(tNat('%lpAmount'), tAddress('%recipient')), pairT(tNat('%token1_min'), tNat('%token2_min'))],
      },
    ],
    [
      'Swap',
      {
        prim: 'pair',
        args: [
          pairT(tNat('%MinimumTokenOut'), tAddress('%recipient')),
          pairT(tAddress('%requiredTokenAddress'), tNat('%requiredTokenId'), tNat('%tokenAmountIn')),
        ],
      },
    ],
  ),
  spicy_pair: entrypoints(
    ['add_liquidity', tAddress('%_to')],
    ['remove_liquidity', tAddress('%_to')],
    ['swap', pairT(tNat('%amount0Out'), tNat('%amount1Out'), tAddress('%_to'), prim('option', [tBytes()], ['%flash']))],
    [
      'transfer',
      prim('list', [
        pairT(
          tAddress('%from_'),
          prim('list', [pairT(tAddress('%to_'), tNat('%token_id'), tNat('%amount'))], ['%txs']),
        ),
      ]),
    ],
  ),
};

/** A Spicy token: `(pair (address %fa2_address) (option %token_id nat))`. */
const spicyToken = (annot: string): Micheline =>
  prim('pair', [tAddress('%fa2_address'), prim('option', [tNat()], ['%token_id'])], [annot]);

const STORAGES: Record<PoolFlavor, Micheline> = {
  lb_cpmm: pairT(
    tNat('%tokenPool'),
    tMutez('%xtzPool'),
    tNat('%lqtTotal'),
    tAddress('%tokenAddress'),
    tAddress('%lqtAddress'),
  ),
  quipuswap_v1: pairT(
    tMutez('%tez_pool'),
    tNat('%token_pool'),
    tNat('%total_supply'),
    tAddress('%token_address'),
    tBigMap(tAddress(), tNat(), '%ledger'),
  ),
  spicy_pair: pairT(
    spicyToken('%token0'),
    spicyToken('%token1'),
    tNat('%reserve0'),
    tNat('%reserve1'),
    tNat('%total_supply'),
    tBigMap(tAddress(), tNat(), '%ledger'),
  ),
  plenty_volatile: pairT(
    tNat('%token1_pool'),
    tNat('%token2_pool'),
    tNat('%totalSupply'),
    tAddress('%token1Address'),
    tAddress('%token2Address'),
    tAddress('%lpTokenAddress'),
  ),
  dexter_v1: {
    prim: 'pair',
    args: [
      tBigMap(tAddress(':owner'), DEXTER_ACCOUNT, '%accounts'),
      pairT(
        pairT(tBool(':selfIsUpdatingTokenPool'), tBool(':freezeBaker'), tNat(':lqtTotal')),
        pairT(pairT(tAddress(':manager'), tAddress(':tokenAddress')), pairT(tNat(':tokenPool'), tMutez(':xtzPool'))),
      ),
    ],
  },
  youves_flat: pairT(
    tNat('%tokenPool'),
    tNat('%cashPool'),
    tNat('%lqtTotal'),
    tNat('%pendingPoolUpdates'),
    tAddress('%tokenAddress'),
    tAddress('%cashAddress'),
    tAddress('%lqtAddress'),
    tNat('%cashMultiplier'),
    tNat('%tokenMultiplier'),
    { prim: 'pair', annots: ['%feeRatio'], args: [tNat('%numerator'), tNat('%denominator')] },
    tAddress('%admin'),
    tAddress('%proposedAdmin'),
    tAddress('%rewardRecipient'),
  ),
  vortex: pairT(
    tNat('%tokenPool'),
    tMutez('%xtzPool'),
    tNat('%lqtTotal'),
    tBool('%selfIsUpdatingTokenPool'),
    tBool('%freezeBaker'),
    tAddress('%manager'),
    tAddress('%tokenAddress'),
    tAddress('%lqtAddress'),
    tBigMap(tString(), tNat(), '%history'),
    tBigMap(tAddress(), VORTEX_INVESTMENT, '%user_investments'),
    tAddress('%reserve'),
  ),
};
