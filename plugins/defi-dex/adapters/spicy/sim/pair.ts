import {
  type AccountBook,
  addressBytes,
  type BalanceUpdates,
  type CallContext,
  entrypoints,
  type Fa12Token,
  int,
  type LazyStorageDiff,
  type Micheline,
  pair,
  pairT,
  prim,
  script,
  str,
  tAddress,
  tBigMap,
  tBytes,
  tNat,
} from '../../../../../framework/sandbox/extension';
import { constantProductOut } from '../../../sim/cpmm/constantProduct';
import { type LedgerCall, type PoolCall, ReservePool } from '../../../sim/cpmm/ReservePool';
import { SPICY_ROUTER } from '../types';

/** A Spicy token: `(pair (address %fa2_address) (option %token_id nat))`. */
const spicyToken = (annot: string): Micheline =>
  prim('pair', [tAddress('%fa2_address'), prim('option', [tNat()], ['%token_id'])], [annot]);

const PARAMETER = entrypoints(
  ['add_liquidity', tAddress('%_to')],
  ['remove_liquidity', tAddress('%_to')],
  ['swap', pairT(tNat('%amount0Out'), tNat('%amount1Out'), tAddress('%_to'), prim('option', [tBytes()], ['%flash']))],
  [
    'transfer',
    prim('list', [
      pairT(tAddress('%from_'), prim('list', [pairT(tAddress('%to_'), tNat('%token_id'), tNat('%amount'))], ['%txs'])),
    ]),
  ],
);
const STORAGE = pairT(
  spicyToken('%token0'),
  spicyToken('%token1'),
  tNat('%reserve0'),
  tNat('%reserve1'),
  tNat('%total_supply'),
  tBigMap(tAddress(), tNat(), '%ledger'),
);

/**
 * A SpicySwap pair of two FA1.2 tokens, paid in by the router, with LP shares in its own FA2 ledger. Not yet
 * the mainnet pair (whose router flow is `get_reserves` → `start_swap` → `balance_callback` ×2 →
 * `finalize_action`, `../types.ts`): a Uniswap-v2-like `swap`, with a 0.3% fee kept in the pool (997/1000; no
 * source at hand for the rate or the rounding).
 */
export class SpicyPair extends ReservePool {
  readonly role = 'spicy_pair';
  readonly code = script(PARAMETER, STORAGE);

  constructor(
    book: AccountBook,
    address: string,
    token: Fa12Token,
    readonly token1: Fa12Token,
  ) {
    super(book, address, token, undefined, token1, SPICY_ROUTER);
  }

  protected override allocate(diff: LazyStorageDiff): { shares: number } {
    return { shares: diff.alloc(tAddress(), tNat()) };
  }

  storage(): Micheline {
    const s = this.state;
    // FA1.2 tokens: `token_id` None.
    const [t0, t1] = [this.token, this.token1].map((t) => pair(addressBytes(t.address), prim('None')));
    return pair(t0, t1, int(s.tokenPool), int(s.otherPool), int(s.lqtTotal), int(s.shares ?? 0));
  }

  /** What `amountIn` of token 0 (`sell0`) or token 1 buys of the other. */
  quote(sell0: boolean, amountIn: bigint): bigint {
    const [inPool, outPool] = this.sides(sell0);
    return constantProductOut(amountIn, inPool, outPool, 997n, 1000n);
  }

  swap(call: CallContext, user: string, sellToken: boolean, amountIn: bigint): PoolCall {
    const out = this.quote(sellToken, amountIn);
    this.exchange(call, user, sellToken, amountIn, out);
    const value = pair(int(sellToken ? 0n : out), int(sellToken ? out : 0n), str(user), prim('None'));
    return { entrypoint: 'swap', amount: 0n, value };
  }

  addLiquidity(call: CallContext, user: string, other: bigint, transfer: BalanceUpdates, opening = 0n): LedgerCall {
    const { grown } = this.deposit(call, user, other, transfer, opening);
    return { grown, entrypoint: 'add_liquidity', amount: 0n, value: str(user) };
  }

  /** Burns the shares `holder` (the pair itself, sent them by the router) holds for the reserves, paid to `user`. */
  removeLiquidity(call: CallContext, user: string, shares: bigint, holder = user): LedgerCall {
    const { grown } = this.withdraw(call, user, shares, holder);
    return { grown, entrypoint: 'remove_liquidity', amount: 0n, value: str(user) };
  }
}
