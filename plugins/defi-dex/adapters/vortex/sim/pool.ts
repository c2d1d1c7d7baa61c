import {
  asMicheline,
  type LazyStorageDiff,
  type Micheline,
  shippedScript,
} from '../../../../../framework/sandbox/extension';
import { type CpmmCalls, LbCpmm } from '../../lb/sim/pool';
import { vortexFa12Code } from '../types.gen';

/** The big maps of the real storage (`../types.ts`), allocated with its key and value types. */
const HISTORY = vortexFa12Code.storageValue.field('history').entries();
const INVESTMENTS = vortexFa12Code.storageValue.field('user_investments').entries();

/**
 * A Vortex tez/FA1.2 pool, a fork of Liquidity Baking's CPMM (Dexter 2): LB's calls and liquidity rules, no
 * burn, a 0.28% fee (9972/10000; no source at hand for the rate: the factory's exchange code below shows the
 * reserve's part only) of which the `reserve` is paid its part in tez out of the pool (`reserveFee`). Its
 * `history` and `user_investments` big maps are allocated and left empty.
 */
export class VortexPool extends LbCpmm {
  override readonly role: string = 'vortex';
  override readonly code: Micheline = shippedScript(vortexFa12Code.types);
  protected override readonly calls: CpmmCalls = vortexFa12Code;
  protected override tezFee: [bigint, bigint] = [9972n, 10000n];

  protected override allocate(diff: LazyStorageDiff): { maps: number[] } {
    const alloc = (m: { key: { type: unknown }; value: { type: unknown } }) =>
      diff.alloc(asMicheline(m.key.type), asMicheline(m.value.type));
    return { maps: [alloc(HISTORY), alloc(INVESTMENTS)] };
  }

  override storage(): Micheline {
    const s = this.state;
    const [history, investments] = s.maps ?? [0, 0];
    return vortexFa12Code.storageValue.encode(
      {
        tokenPool: s.tokenPool,
        xtzPool: s.otherPool,
        lqtTotal: s.lqtTotal,
        selfIsUpdatingTokenPool: false,
        freezeBaker: false,
        manager: this.address,
        tokenAddress: this.token.address,
        lqtAddress: this.lqtToken.address,
        history,
        user_investments: investments,
        reserve: this.feeRecipient,
      },
      'optimized',
    );
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
