import {
  type AccountBook,
  type BalanceUpdates,
  type CallContext,
  type Fa12Token,
  type Micheline,
  shippedScript,
} from '../../../../../framework/sandbox/extension';
import { deadlineTime, type LedgerCall, type PoolCall, ReservePool } from '../../../sim/cpmm/ReservePool';
import { lbCpmmCode, type LbCpmmParameters } from '../types.gen';

/** How a CPMM's calls are written: through its real parameter type (LB's, or a fork's with the same calls). */
export interface CpmmCalls {
  encodeCall<E extends keyof LbCpmmParameters & string>(entrypoint: E, args: LbCpmmParameters[E]): Micheline;
}

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
  readonly code: Micheline = shippedScript(lbCpmmCode.types);
  /** The real types its calls are written with. */
  protected readonly calls: CpmmCalls = lbCpmmCode;
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
    const s = this.state;
    return lbCpmmCode.storageValue.encode(
      {
        tokenPool: s.tokenPool,
        xtzPool: s.otherPool,
        lqtTotal: s.lqtTotal,
        tokenAddress: this.token.address,
        lqtAddress: this.lqtToken.address,
      },
      'optimized',
    );
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
    const deadline = deadlineTime(call.ctx.timestamp);
    return sellToken
      ? {
          entrypoint: 'tokenToXtz',
          amount: 0n,
          value: this.calls.encodeCall('tokenToXtz', {
            to: user,
            tokensSold: amountIn,
            minXtzBought: out - burn,
            deadline,
          }),
        }
      : {
          entrypoint: 'xtzToToken',
          amount: amountIn,
          value: this.calls.encodeCall('xtzToToken', { to: user, minTokensBought: out, deadline }),
        };
  }

  addLiquidity(call: CallContext, user: string, other: bigint, transfer: BalanceUpdates, opening = 0n): LedgerCall {
    const { tokens, minted, grown } = this.deposit(call, user, other, transfer, opening);
    const value = this.calls.encodeCall('addLiquidity', {
      owner: user,
      minLqtMinted: minted,
      maxTokensDeposited: tokens,
      deadline: deadlineTime(call.ctx.timestamp),
    });
    return { grown, entrypoint: 'addLiquidity', amount: other, value };
  }

  removeLiquidity(call: CallContext, user: string, shares: bigint): LedgerCall {
    const { tokens, other, grown } = this.withdraw(call, user, shares);
    const value = this.calls.encodeCall('removeLiquidity', {
      to: user,
      lqtBurned: shares,
      minXtzWithdrawn: other,
      minTokensWithdrawn: tokens,
      deadline: deadlineTime(call.ctx.timestamp),
    });
    return { grown, entrypoint: 'removeLiquidity', amount: 0n, value };
  }
}
