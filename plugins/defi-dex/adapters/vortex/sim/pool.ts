import {
  addressBytes,
  bool,
  entrypoints,
  int,
  type LazyStorageDiff,
  type Micheline,
  pairT,
  pair,
  script,
  tAddress,
  tBigMap,
  tBool,
  tMutez,
  tNat,
  tString,
  tUnit,
} from '../../../../../framework/sandbox/extension';
import { LB_ENTRYPOINTS, LbCpmm } from '../../lb/sim/pool';

/** The value of Vortex's `user_investments` big map (a deposit's tez and tokens, added or removed). */
const INVESTMENT = pairT(tMutez('%xtz'), tNat('%token'), {
  prim: 'or',
  annots: ['%direction'],
  args: [
    { prim: 'unit', annots: ['%aDD'] },
    { prim: 'unit', annots: ['%rEMOVE'] },
  ],
});

const PARAMETER = entrypoints(...LB_ENTRYPOINTS, ['updateTokenPool', tUnit()], ['updateTokenPoolInternal', tNat()]);
const STORAGE = pairT(
  tNat('%tokenPool'),
  tMutez('%xtzPool'),
  tNat('%lqtTotal'),
  tBool('%selfIsUpdatingTokenPool'),
  tBool('%freezeBaker'),
  tAddress('%manager'),
  tAddress('%tokenAddress'),
  tAddress('%lqtAddress'),
  tBigMap(tString(), tNat(), '%history'),
  tBigMap(tAddress(), INVESTMENT, '%user_investments'),
  tAddress('%reserve'),
);

/**
 * A Vortex tez/FA1.2 pool, a fork of Liquidity Baking's CPMM (Dexter 2): LB's calls and liquidity rules, no
 * burn, a 0.28% fee (9972/10000; no source at hand for the rate: the factory's exchange code below shows the
 * reserve's part only) of which the `reserve` is paid its part in tez out of the pool (`reserveFee`). Its
 * `history` and `user_investments` big maps are allocated and left empty.
 */
export class VortexPool extends LbCpmm {
  override readonly role: string = 'vortex';
  override readonly code: Micheline = script(PARAMETER, STORAGE);
  protected override tezFee: [bigint, bigint] = [9972n, 10000n];

  protected override allocate(diff: LazyStorageDiff): { maps: number[] } {
    return { maps: [diff.alloc(tString(), tNat()), diff.alloc(tAddress(), INVESTMENT)] };
  }

  override storage(): Micheline {
    const s = this.state;
    const [history, investments] = s.maps ?? [0, 0];
    const addresses = [this.address, this.token.address, this.lqtToken.address].map(addressBytes);
    const [pools, maps] = [[s.tokenPool, s.otherPool, s.lqtTotal].map(int), [int(history), int(investments)]];
    const flags = [bool(false), bool(false)];
    return pair(...pools, ...flags, ...addresses, ...maps, addressBytes(this.feeRecipient));
  }

  protected override burnOf(): bigint {
    return 0n;
  }

  /**
   * The reserve's share of the fee, in tez, which the pool sends out of its tez reserve: 3/10000 of the tez
   * paid in, or the tez 3/10000 of the tokens sold buy at the reserves without fee. Source: the Vortex FA1.2
   * factory's exchange code (`xtzToToken`, `tokenToXtz`), stove-labs/arbitrage-bot
   * integration-tests/integration-tests/vortex/contracts/contract.tz at 52ad69b29dfb7558fa7691c24141c882ef665529.
   */
  protected override reserveFee(sellToken: boolean, amountIn: bigint): bigint {
    const s = this.state;
    if (!sellToken) return (3n * amountIn) / 10000n;
    return (3n * amountIn * s.otherPool) / (10000n * s.tokenPool + 3n * amountIn);
  }
}
