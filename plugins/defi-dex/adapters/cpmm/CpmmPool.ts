import {
  type AccountBook,
  addressBytes,
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
  script,
  str,
  tAddress,
  tBigMap,
  tMutez,
  tNat,
  tTimestamp,
  tUnit,
} from '../../../../framework/sandbox/extension';
import { PendingDiff } from './PendingDiff';

export type PoolFlavor = 'lb_cpmm' | 'quipuswap_v1' | 'plenty_volatile';

interface PoolState {
  /** Reserve of the token side (token A for Plenty). */
  tokenPool: bigint;
  /** Tez reserve (LB, QuipuSwap) or token B reserve (Plenty). */
  otherPool: bigint;
  lqtTotal: bigint;
  /** QuipuSwap keeps LP shares in its own ledger big map. */
  shares?: number;
}

export interface PoolCall {
  entrypoint: string;
  value: Micheline;
  /** Tez attached to the call. */
  amount: bigint;
}

const deadline = (ts: string) => str(new Date(Date.parse(ts) + 20 * 60_000).toISOString().replace('.000Z', 'Z'));

/**
 * Constant-product pools with the real entrypoint and parameter shapes of Liquidity Baking (Sirius),
 * QuipuSwap v1 (tez/FA1.2) and Plenty volatile pools (FA1.2/FA1.2). Reserves move by the protocols'
 * own formulas (fees 0.1%+0.1% burn, 0.3%, 1/lpFee) and tokens move through internal FA1.2 calls.
 */
export class CpmmPool implements ContractModel {
  readonly code: Micheline;

  constructor(
    private readonly book: AccountBook,
    readonly address: string,
    readonly role: PoolFlavor,
    readonly token: Fa12Token,
    /** LB/Plenty: the LP token contract (mintOrBurn); Plenty: also token B via `tokenB`. */
    readonly lqt: Fa12Token | undefined,
    readonly tokenB: Fa12Token | undefined,
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
    const shares = this.role === 'quipuswap_v1' ? diff.alloc(tAddress(), tNat()) : undefined;
    this.setState({ tokenPool, otherPool, lqtTotal, shares });
  }

  storage(): Micheline {
    const s = this.state;
    switch (this.role) {
      case 'lb_cpmm':
        // The node prints LB's right-comb storage as a flat sequence (optimized form).
        return [int(s.tokenPool), int(s.otherPool), int(s.lqtTotal), addressBytes(this.token.address), addressBytes((this.lqt as Fa12Token).address)];
      case 'quipuswap_v1':
        return pair(int(s.otherPool), int(s.tokenPool), int(s.lqtTotal), addressBytes(this.token.address), int(s.shares ?? 0));
      case 'plenty_volatile':
        return pair(int(s.tokenPool), int(s.otherPool), int(s.lqtTotal), addressBytes(this.token.address), addressBytes((this.tokenB as Fa12Token).address), addressBytes((this.lqt as Fa12Token).address));
    }
  }

  /** Liquidity-baking subsidy credited to the CPMM (the implicit `%default` call of every block). */
  subsidy(updates: BalanceUpdates, amount: bigint): Micheline {
    updates.transfer((b, c) => b.minted('subsidy', c), (b, c) => b.contract(this.address, c), amount);
    this.setState({ ...this.state, otherPool: this.state.otherPool + amount });
    return this.storage();
  }

  /** Swap `amountIn` from `user`; `sellToken` picks the direction. Applies it and returns the call. */
  swap(call: CallContext, user: string, sellToken: boolean, amountIn: bigint, transfer: BalanceUpdates): PoolCall {
    const s = this.state;
    const ts = call.ctx.timestamp;
    if (this.role === 'plenty_volatile') {
      const [inPool, outPool] = sellToken ? [s.tokenPool, s.otherPool] : [s.otherPool, s.tokenPool];
      const fee = amountIn / 290n;
      const out = ((amountIn - fee) * outPool) / (inPool + amountIn - fee);
      const [tin, tout] = sellToken ? [this.token, this.tokenB as Fa12Token] : [this.tokenB as Fa12Token, this.token];
      tin.transfer(call, this.address, user, this.address, amountIn);
      tout.transfer(call, this.address, this.address, user, out);
      this.setState(sellToken ? { ...s, tokenPool: s.tokenPool + amountIn, otherPool: s.otherPool - out } : { ...s, otherPool: s.otherPool + amountIn, tokenPool: s.tokenPool - out });
      return { entrypoint: 'Swap', amount: 0n, value: pair(pair(int(out), str(user)), pair(str(tout.address), pair(int(0), int(amountIn)))) };
    }
    const lb = this.role === 'lb_cpmm';
    if (!sellToken) {
      // Tez in: LB burns 0.1% of the tez first, QuipuSwap keeps it all in the pool.
      transfer.transfer((b, c) => b.contract(user, c), (b, c) => b.contract(this.address, c), amountIn);
      const burn = lb ? amountIn / 1000n : 0n;
      const net = amountIn - burn;
      const [num, den] = lb ? [999n, 1000n] : [997n, 1000n];
      const out = (net * num * s.tokenPool) / (s.otherPool * den + net * num);
      this.token.transfer(call, this.address, this.address, user, out);
      if (burn > 0n) call.pushTezTransfer(this.address, NULL_ADDRESS, burn);
      this.setState({ ...s, otherPool: s.otherPool + net, tokenPool: s.tokenPool - out });
      return lb
        ? { entrypoint: 'xtzToToken', amount: amountIn, value: pair(str(user), int(out), deadline(ts)) }
        : { entrypoint: 'tezToTokenPayment', amount: amountIn, value: pair(int(out), str(user)) };
    }
    const [num, den] = lb ? [999n, 1000n] : [997n, 1000n];
    const gross = (amountIn * num * s.otherPool) / (s.tokenPool * den + amountIn * num);
    const burn = lb ? gross / 1000n : 0n;
    this.token.transfer(call, this.address, user, this.address, amountIn);
    call.pushTezTransfer(this.address, user, gross - burn);
    if (burn > 0n) call.pushTezTransfer(this.address, NULL_ADDRESS, burn);
    this.setState({ ...s, tokenPool: s.tokenPool + amountIn, otherPool: s.otherPool - gross });
    return lb
      ? { entrypoint: 'tokenToXtz', amount: 0n, value: pair(str(user), int(amountIn), int(gross - burn), deadline(ts)) }
      : { entrypoint: 'tokenToTezPayment', amount: 0n, value: pair(pair(int(amountIn), int(gross)), str(user)) };
  }

  /** Deposit `other` (tez, or token B for Plenty) plus the matching token amount; mints LP shares. */
  addLiquidity(call: CallContext, user: string, other: bigint, transfer: BalanceUpdates): PoolCall & { grown: number } {
    const s = this.state;
    const tokens = (other * s.tokenPool + s.otherPool - 1n) / s.otherPool;
    const minted = (other * s.lqtTotal) / s.otherPool;
    let grown = 0;
    if (this.role === 'plenty_volatile') {
      this.token.transfer(call, this.address, user, this.address, tokens);
      (this.tokenB as Fa12Token).transfer(call, this.address, user, this.address, other);
      (this.lqt as Fa12Token).mintOrBurn(call, this.address, user, minted);
    } else {
      transfer.transfer((b, c) => b.contract(user, c), (b, c) => b.contract(this.address, c), other);
      this.token.transfer(call, this.address, user, this.address, tokens);
      if (this.lqt) this.lqt.mintOrBurn(call, this.address, user, minted);
      else grown = this.moveShares(call, user, minted);
    }
    this.setState({ ...this.state, tokenPool: s.tokenPool + tokens, otherPool: s.otherPool + other, lqtTotal: s.lqtTotal + minted });
    const ts = call.ctx.timestamp;
    switch (this.role) {
      case 'lb_cpmm':
        return { grown, entrypoint: 'addLiquidity', amount: other, value: pair(str(user), int(minted), int(tokens), deadline(ts)) };
      case 'quipuswap_v1':
        return { grown, entrypoint: 'investLiquidity', amount: other, value: int(minted) };
      case 'plenty_volatile':
        return { grown, entrypoint: 'AddLiquidity', amount: 0n, value: pair(str(user), int(tokens), int(other)) };
    }
  }

  /** Burn `shares` LP shares of `user` for the pro-rata reserves. */
  removeLiquidity(call: CallContext, user: string, shares: bigint): PoolCall & { grown: number } {
    const s = this.state;
    const tokens = (shares * s.tokenPool) / s.lqtTotal;
    const other = (shares * s.otherPool) / s.lqtTotal;
    let grown = 0;
    if (this.lqt) this.lqt.mintOrBurn(call, this.address, user, -shares);
    else grown = this.moveShares(call, user, -shares);
    this.token.transfer(call, this.address, this.address, user, tokens);
    if (this.role === 'plenty_volatile') (this.tokenB as Fa12Token).transfer(call, this.address, this.address, user, other);
    else call.pushTezTransfer(this.address, user, other);
    this.setState({ ...this.state, tokenPool: s.tokenPool - tokens, otherPool: s.otherPool - other, lqtTotal: s.lqtTotal - shares });
    const ts = call.ctx.timestamp;
    switch (this.role) {
      case 'lb_cpmm':
        return { grown, entrypoint: 'removeLiquidity', amount: 0n, value: pair(str(user), int(shares), int(other), int(tokens), deadline(ts)) };
      case 'quipuswap_v1':
        return { grown, entrypoint: 'divestLiquidity', amount: 0n, value: pair(pair(int(other), int(tokens)), int(shares)) };
      case 'plenty_volatile':
        return { grown, entrypoint: 'RemoveLiquidity', amount: 0n, value: pair(pair(int(shares), str(user)), pair(int(tokens), int(other))) };
    }
  }

  /** LP shares `user` holds (in the pool's own ledger or in the LP token). */
  sharesOf(user: string): bigint {
    if (this.lqt) return this.lqt.balanceOf(user);
    const v = bigMapGet(this.book, this.state.shares ?? -1, str(user));
    return v && 'int' in v ? BigInt(v.int) : 0n;
  }

  /** Diff of the pool's own ledger within the current call (QuipuSwap shares). */
  readonly pending = new PendingDiff();

  private moveShares(call: CallContext, user: string, delta: bigint): number {
    const before = this.sharesOf(user);
    const after = before + delta;
    this.pending.of(call).update(this.state.shares as number, str(user), after === 0n ? undefined : int(after));
    return before === 0n && after > 0n ? 1 : 0;
  }
}

const DEADLINE = tTimestamp('%deadline');

const PARAMETERS: Record<PoolFlavor, Micheline> = {
  lb_cpmm: entrypoints(
    ['addLiquidity', pairT(tAddress('%owner'), tNat('%minLqtMinted'), tNat('%maxTokensDeposited'), DEADLINE)],
    ['default', tUnit()],
    ['removeLiquidity', pairT(tAddress('%to'), tNat('%lqtBurned'), tMutez('%minXtzWithdrawn'), tNat('%minTokensWithdrawn'), DEADLINE)],
    ['tokenToToken', pairT(tAddress('%outputDexterContract'), tNat('%minTokensBought'), tAddress('%to'), tNat('%tokensSold'), DEADLINE)],
    ['tokenToXtz', pairT(tAddress('%to'), tNat('%tokensSold'), tMutez('%minXtzBought'), DEADLINE)],
    ['xtzToToken', pairT(tAddress('%to'), tNat('%minTokensBought'), DEADLINE)],
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
    ['RemoveLiquidity', { prim: 'pair', args: [pairT(tNat('%lpAmount'), tAddress('%recipient')), pairT(tNat('%token1_min'), tNat('%token2_min'))] }],
    ['Swap', { prim: 'pair', args: [pairT(tNat('%MinimumTokenOut'), tAddress('%recipient')), pairT(tAddress('%requiredTokenAddress'), tNat('%requiredTokenId'), tNat('%tokenAmountIn'))] }],
  ),
};

const STORAGES: Record<PoolFlavor, Micheline> = {
  lb_cpmm: pairT(tNat('%tokenPool'), tMutez('%xtzPool'), tNat('%lqtTotal'), tAddress('%tokenAddress'), tAddress('%lqtAddress')),
  quipuswap_v1: pairT(tMutez('%tez_pool'), tNat('%token_pool'), tNat('%total_supply'), tAddress('%token_address'), tBigMap(tAddress(), tNat(), '%ledger')),
  plenty_volatile: pairT(tNat('%token1_pool'), tNat('%token2_pool'), tNat('%totalSupply'), tAddress('%token1Address'), tAddress('%token2Address'), tAddress('%lpTokenAddress')),
};
