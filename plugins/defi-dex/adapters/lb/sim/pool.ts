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
  tMutez,
  tNat,
  tTimestamp,
  tUnit,
} from '../../../../../framework/sandbox/extension';
import { deadline, type LedgerCall, type PoolCall, ReservePool } from '../../../sim/cpmm/ReservePool';

const DEADLINE = tTimestamp('%deadline');
/** The CPMM's parameter (Dexter 2's, which Vortex keeps): the shipped `../types.ts` has the same entrypoints. */
export const LB_ENTRYPOINTS: Array<[string, Micheline]> = [
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

const STORAGE = pairT(
  tNat('%tokenPool'),
  tMutez('%xtzPool'),
  tNat('%lqtTotal'),
  tAddress('%tokenAddress'),
  tAddress('%lqtAddress'),
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

/**
 * The Liquidity Baking CPMM (tez/tzBTC, shares in its Sirius LQT token): Dexter 2's entrypoints, a 0.1% fee
 * kept in the pool (999/1000) and 0.1% of the tez burned (`lbBurn`), as the same `cpmm_logic.ml` computes.
 */
export class LbCpmm extends ReservePool {
  readonly role: string = 'lb_cpmm';
  readonly code: Micheline = script(entrypoints(...LB_ENTRYPOINTS), STORAGE);
  protected override tezFee: [bigint, bigint] = [999n, 1000n];

  constructor(
    book: AccountBook,
    address: string,
    token: Fa12Token,
    /** The LQT token: the pool's shares. */
    readonly lqtToken: Fa12Token,
    feeRecipient = address,
  ) {
    super(book, address, token, lqtToken, undefined, address, feeRecipient);
  }

  storage(): Micheline {
    // The node prints LB's right-comb storage as a flat sequence (optimized form).
    const s = this.state;
    const addresses = [this.token.address, this.lqtToken.address].map(addressBytes);
    return [int(s.tokenPool), int(s.otherPool), int(s.lqtTotal), ...addresses];
  }

  protected override burnOf(mutez: bigint): bigint {
    return lbBurn(mutez);
  }

  /** Liquidity-baking subsidy credited to the CPMM (the implicit `%default` call of every block). */
  subsidy(updates: BalanceUpdates, amount: bigint): Micheline {
    updates.transfer(
      (b, c) => b.minted('subsidy', c),
      (b, c) => b.contract(this.address, c),
      amount,
    );
    this.moveReserves(0n, amount);
    return this.storage();
  }

  swap(call: CallContext, user: string, sellToken: boolean, amountIn: bigint, transfer: BalanceUpdates): PoolCall {
    const { out, burn } = this.swapTez(call, user, sellToken, amountIn, transfer);
    const ts = call.ctx.timestamp;
    return sellToken
      ? { entrypoint: 'tokenToXtz', amount: 0n, value: pair(str(user), int(amountIn), int(out - burn), deadline(ts)) }
      : { entrypoint: 'xtzToToken', amount: amountIn, value: pair(str(user), int(out), deadline(ts)) };
  }

  addLiquidity(call: CallContext, user: string, other: bigint, transfer: BalanceUpdates, opening = 0n): LedgerCall {
    const { tokens, minted, grown } = this.deposit(call, user, other, transfer, opening);
    const value = pair(str(user), int(minted), int(tokens), deadline(call.ctx.timestamp));
    return { grown, entrypoint: 'addLiquidity', amount: other, value };
  }

  removeLiquidity(call: CallContext, user: string, shares: bigint): LedgerCall {
    const { tokens, other, grown } = this.withdraw(call, user, shares);
    const value = pair(str(user), int(shares), int(other), int(tokens), deadline(call.ctx.timestamp));
    return { grown, entrypoint: 'removeLiquidity', amount: 0n, value };
  }
}
