import {
  type AccountBook,
  addressBytes,
  type BalanceUpdates,
  type CallContext,
  entrypoints,
  type Fa12Token,
  int,
  type Micheline,
  pair,
  pairT,
  script,
  str,
  tAddress,
  tNat,
  tTimestamp,
  tUnit,
} from '../../../../../framework/sandbox/extension';
import { flatCurveOutput } from '../../../sim/cpmm/flatCurve';
import { deadline, type LedgerCall, type PoolCall, ReservePool } from '../../../sim/cpmm/ReservePool';

const DEADLINE = tTimestamp('%deadline');
const PARAMETER = entrypoints(
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
);
const STORAGE = pairT(
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
);

/** The sandbox's pool keeps 0.15% of the curve's output (the rate on crunchy's fee table). */
const FEE = { numerator: 9985n, denominator: 10000n };

/**
 * A Youves flat CFMM (token/cash, FA1.2/FA1.2, shares in its LQT token): the constant-product pools' liquidity
 * rules, trades on the flat curve (`flatCurve.ts`), part of the fee paid to `rewardRecipient`
 * (`feeRecipient`), as youves-com/youves-smart-contract contracts/swap/fa12_flat_cfmm.mligo at
 * 750af577d178a5778d5b49ce9127a94913c75e23.
 */
export class FlatCfmm extends ReservePool {
  readonly role = 'youves_flat';
  readonly code = script(PARAMETER, STORAGE);

  constructor(
    book: AccountBook,
    address: string,
    token: Fa12Token,
    readonly lqtToken: Fa12Token,
    readonly cash: Fa12Token,
    rewardRecipient: string,
  ) {
    super(book, address, token, lqtToken, cash, address, rewardRecipient);
  }

  storage(): Micheline {
    const s = this.state;
    const { cashMultiplier, tokenMultiplier } = this.multipliers();
    const fee = pair(int(FEE.numerator), int(FEE.denominator));
    const addresses = [this.token.address, this.cash.address, this.lqtToken.address].map(addressBytes);
    const admins = [this.address, this.address, this.feeRecipient].map(addressBytes);
    const pools = [s.tokenPool, s.otherPool, s.lqtTotal, 0n].map(int);
    return pair(...pools, ...addresses, int(cashMultiplier), int(tokenMultiplier), fee, ...admins);
  }

  /**
   * Token in for cash out (`sellToken`) or cash in for token out, as the contract's `cash_to_token` and
   * `token_to_cash`: of the curve's output W the user gets ⌊numerator·W/denominator⌋, `rewardRecipient`
   * half the rest rounded down, the pool keeps the remainder.
   */
  swap(call: CallContext, user: string, sellToken: boolean, amountIn: bigint): PoolCall {
    const { cashMultiplier, tokenMultiplier } = this.multipliers();
    const [inPool, outPool] = this.sides(sellToken);
    const [mIn, mOut] = sellToken ? [tokenMultiplier, cashMultiplier] : [cashMultiplier, tokenMultiplier];
    const w = flatCurveOutput(inPool * mIn, outPool * mOut, amountIn * mIn) / mOut;
    const out = (FEE.numerator * w) / FEE.denominator;
    const reward = (w - out) / 2n;
    const tout = this.exchange(call, user, sellToken, amountIn, out);
    tout.transfer(call, this.address, this.address, this.feeRecipient, reward);
    if (sellToken) this.moveReserves(0n, -reward);
    else this.moveReserves(-reward, 0n);
    const ts = call.ctx.timestamp;
    return sellToken
      ? { entrypoint: 'tokenToCash', amount: 0n, value: pair(str(user), int(amountIn), int(out), deadline(ts)) }
      : { entrypoint: 'cashToToken', amount: 0n, value: pair(str(user), int(out), int(amountIn), deadline(ts)) };
  }

  /** The multipliers bring both tokens to the same precision, so the flat curve pegs them one to one. */
  private multipliers(): { cashMultiplier: bigint; tokenMultiplier: bigint } {
    const gap = this.cash.decimals - this.token.decimals;
    return { cashMultiplier: 10n ** BigInt(Math.max(0, -gap)), tokenMultiplier: 10n ** BigInt(Math.max(0, gap)) };
  }

  addLiquidity(call: CallContext, user: string, other: bigint, transfer: BalanceUpdates, opening = 0n): LedgerCall {
    const { tokens, minted, grown } = this.deposit(call, user, other, transfer, opening);
    const value = pair(str(user), int(minted), int(tokens), int(other), deadline(call.ctx.timestamp));
    return { grown, entrypoint: 'addLiquidity', amount: 0n, value };
  }

  removeLiquidity(call: CallContext, user: string, shares: bigint): LedgerCall {
    const { tokens, other, grown } = this.withdraw(call, user, shares);
    const value = pair(str(user), int(shares), int(other), int(tokens), deadline(call.ctx.timestamp));
    return { grown, entrypoint: 'removeLiquidity', amount: 0n, value };
  }
}
