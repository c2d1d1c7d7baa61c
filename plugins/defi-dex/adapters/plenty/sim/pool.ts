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
  prim,
  script,
  str,
  tAddress,
  tNat,
} from '../../../../../framework/sandbox/extension';
import { constantProductOut } from '../../../sim/cpmm/constantProduct';
import { type LedgerCall, type PoolCall, ReservePool } from '../../../sim/cpmm/ReservePool';

const PARAMETER = entrypoints(
  ['AddLiquidity', pairT(tAddress('%recipient'), tNat('%token1_max'), tNat('%token2_max'))],
  [
    'RemoveLiquidity',
    prim('pair', [pairT(tNat('%lpAmount'), tAddress('%recipient')), pairT(tNat('%token1_min'), tNat('%token2_min'))]),
  ],
  [
    'Swap',
    prim('pair', [
      pairT(tNat('%MinimumTokenOut'), tAddress('%recipient')),
      pairT(tAddress('%requiredTokenAddress'), tNat('%requiredTokenId'), tNat('%tokenAmountIn')),
    ]),
  ],
);
const STORAGE = pairT(
  tNat('%token1_pool'),
  tNat('%token2_pool'),
  tNat('%totalSupply'),
  tAddress('%token1Address'),
  tAddress('%token2Address'),
  tAddress('%lpTokenAddress'),
);

/**
 * A Plenty volatile FA1.2/FA1.2 pool (shares in its LP token): the fee, 1/290 of the input rounded down,
 * stays in the pool (no source at hand for the rate or the rounding).
 */
export class PlentyPool extends ReservePool {
  readonly role = 'plenty_volatile';
  readonly code = script(PARAMETER, STORAGE);

  constructor(
    book: AccountBook,
    address: string,
    token: Fa12Token,
    readonly lpToken: Fa12Token,
    readonly token2: Fa12Token,
  ) {
    super(book, address, token, lpToken, token2);
  }

  storage(): Micheline {
    const s = this.state;
    const addresses = [this.token, this.token2, this.lpToken].map((t) => addressBytes(t.address));
    return pair(int(s.tokenPool), int(s.otherPool), int(s.lqtTotal), ...addresses);
  }

  swap(call: CallContext, user: string, sellToken: boolean, amountIn: bigint): PoolCall {
    const [inPool, outPool] = this.sides(sellToken);
    const net = amountIn - amountIn / 290n;
    const out = constantProductOut(net, inPool, outPool);
    const tout = this.exchange(call, user, sellToken, amountIn, out);
    const value = pair(pair(int(out), str(user)), pair(str(tout.address), pair(int(0), int(amountIn))));
    return { entrypoint: 'Swap', amount: 0n, value };
  }

  addLiquidity(call: CallContext, user: string, other: bigint, transfer: BalanceUpdates, opening = 0n): LedgerCall {
    const { tokens, grown } = this.deposit(call, user, other, transfer, opening);
    return { grown, entrypoint: 'AddLiquidity', amount: 0n, value: pair(str(user), int(tokens), int(other)) };
  }

  removeLiquidity(call: CallContext, user: string, shares: bigint): LedgerCall {
    const { tokens, other, grown } = this.withdraw(call, user, shares);
    const value = pair(pair(int(shares), str(user)), pair(int(tokens), int(other)));
    return { grown, entrypoint: 'RemoveLiquidity', amount: 0n, value };
  }
}
