import {
  type AccountBook,
  addressBytes,
  CallContext,
  type ContractModel,
  entrypoints,
  type Fa12Token,
  int,
  type LazyStorageDiff,
  type Micheline,
  pair,
  pairT,
  PositionBook,
  script,
  tAddress,
  tBigMap,
  tNat,
  tUnit,
} from '../../../../framework/sandbox/extension';

interface FarmState {
  balances: number;
  totalSupply: bigint;
}

/**
 * A Plenty-style single farm: `stake nat` / `unstake nat` move LP tokens in and out (internal FA1.2
 * transfers), `GetReward unit` pays the reward token. The storage names its tokens as Plenty's do
 * (`stakeToken`, `rewardToken`); the reward is a flat stand-in (balance/1000 + 1), not Plenty's
 * reward-per-token accounting, so the model keeps no pending rewards.
 */
export class Farm implements ContractModel {
  readonly role = 'plenty_farm' as const;
  readonly code = script(entrypoints(['GetReward', tUnit()], ['stake', tNat()], ['unstake', tNat()]), pairT(tBigMap(tAddress(), tNat(), '%balances'), tNat('%totalSupply'), tAddress('%stakeToken'), tAddress('%rewardToken')));
  readonly positions: PositionBook;

  constructor(private readonly book: AccountBook, readonly address: string, readonly staked: Fa12Token, readonly reward: Fa12Token) {
    this.positions = new PositionBook(book, () => this.state.balances, false);
  }

  get state(): FarmState {
    return this.book.state<FarmState>(this.address);
  }

  init(diff: LazyStorageDiff): void {
    this.book.setState<FarmState>(this.address, { balances: diff.alloc(tAddress(), tNat()), totalSupply: 0n });
  }

  storage(): Micheline {
    return pair(int(this.state.balances), int(this.state.totalSupply), addressBytes(this.staked.address), addressBytes(this.reward.address));
  }

  /** Applies `entrypoint` for `user`; returns the parameter value and storage growth. */
  apply(call: CallContext, diff: LazyStorageDiff, user: string, entrypoint: 'stake' | 'unstake' | 'GetReward', amount: bigint): { value: Micheline; grown: number } {
    if (entrypoint === 'GetReward') {
      const reward = (this.positions.get(user) / 1000n) + 1n;
      this.reward.transfer(call, this.address, this.address, user, reward);
      return { value: { prim: 'Unit' }, grown: 0 };
    }
    const sign = entrypoint === 'stake' ? 1n : -1n;
    if (entrypoint === 'stake') this.staked.transfer(call, this.address, user, this.address, amount);
    const grown = this.positions.add(diff, user, sign * amount);
    if (entrypoint === 'unstake') this.staked.transfer(call, this.address, this.address, user, amount);
    this.book.setState<FarmState>(this.address, { ...this.state, totalSupply: this.state.totalSupply + sign * amount });
    return { value: int(amount), grown };
  }
}
