import {
  type AccountBook,
  addressBytes,
  bool,
  CallContext,
  type ContractModel,
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
  tNat,
  tUnit,
} from '../../../../../framework/sandbox/extension';

/** Balances and totalSupply are kept ×10^12, as Plenty's lot farms keep them (USDT.e/USDC.e). */
export const STAKE_SCALE = 10n ** 12n;
const E18 = 10n ** 18n;
/** Rewards per block (raw reward token) and the level the period ends at. */
const REWARD_RATE = 1_000_000n;
const PERIOD_FINISH = 1_000_000n;
/** Lots younger than this many blocks pay an unstake fee of FEE_BPS. */
const YOUNG_BLOCKS = 30;
const FEE_BPS = 25n;

export type FarmEntrypoint = 'stake' | 'unstake' | 'GetReward';

/** A staker's entry: lots by key (raw amounts), the scaled balance, the next lot key, rewards earned. */
export interface FarmEntry {
  lots: Readonly<Record<string, { amount: bigint; level: number }>>;
  balance: bigint;
  counter: bigint;
  rewards: bigint;
  paid: bigint;
}

interface FarmState {
  balances: number;
  totalSupply: bigint;
  lastUpdateTime: bigint;
  rewardPerTokenStored: bigint;
  users: Readonly<Record<string, FarmEntry>>;
}

const ENTRY_T = pairT(
  pairT(prim('map', [tNat(), pairT(tNat('%amount'), tNat('%level'))], ['%InvestMap']), tNat('%balance')),
  tNat('%counter'),
  tNat('%rewards'),
  tNat('%userRewardPerTokenPaid'),
);

/**
 * A Plenty lot farm (the USDT.e/USDC.e farm's layout and Synthetix-style accounting): `stake nat` adds
 * a lot, `unstake {Amount, MapKey}` takes from one lot (young lots pay a fee kept by the farm),
 * `GetReward unit` pays what the reward-per-token formula earned:
 *   rewardPerToken = stored + (min(level, periodFinish) − lastUpdateTime)·rewardRate·10^18/totalSupply
 *   earned = balance·(rewardPerToken − userRewardPerTokenPaid)/10^18 + rewards
 * updated for the caller on every call. State is replaced, never mutated (the book snapshots it).
 */
export class Farm implements ContractModel {
  readonly role = 'plenty_farm' as const;
  readonly service = 'farm';
  readonly code = script(
    entrypoints(['GetReward', tUnit()], ['stake', tNat()], ['unstake', pairT(tNat('%Amount'), tNat('%MapKey'))]),
    pairT(
      tBigMap(tAddress(), ENTRY_T, '%balances'),
      tNat('%totalSupply'),
      tAddress('%stakeToken'),
      tAddress('%rewardToken'),
      prim('bool', undefined, ['%faTwoToken']),
      tNat('%lastUpdateTime'),
      tNat('%periodFinish'),
      tNat('%rewardPerTokenStored'),
      tNat('%rewardRate'),
    ),
  );

  constructor(
    private readonly book: AccountBook,
    readonly address: string,
    readonly staked: Fa12Token,
    readonly reward: Fa12Token,
  ) {}

  get state(): FarmState {
    return this.book.state<FarmState>(this.address);
  }

  init(diff: LazyStorageDiff): void {
    this.book.setState<FarmState>(this.address, {
      balances: diff.alloc(tAddress(), ENTRY_T),
      totalSupply: 0n,
      lastUpdateTime: 0n,
      rewardPerTokenStored: 0n,
      users: {},
    });
  }

  storage(): Micheline {
    const s = this.state;
    return pair(
      int(s.balances),
      int(s.totalSupply),
      addressBytes(this.staked.address),
      addressBytes(this.reward.address),
      bool(false),
      int(s.lastUpdateTime),
      int(PERIOD_FINISH),
      int(s.rewardPerTokenStored),
      int(REWARD_RATE),
    );
  }

  entry(user: string): FarmEntry | undefined {
    return this.state.users[user];
  }

  /** The raw stake of `user` (the sum of the lots). */
  stakeOf(user: string): bigint {
    return Object.values(this.entry(user)?.lots ?? {}).reduce((n, l) => n + l.amount, 0n);
  }

  /** Applies `entrypoint` for `user` at `level`; returns the parameter value and storage growth. */
  apply(
    call: CallContext,
    diff: LazyStorageDiff,
    user: string,
    entrypoint: FarmEntrypoint,
    amount: bigint,
    lotKey = 0n,
  ): { value: Micheline; grown: number } {
    const level = BigInt(call.ctx.level);
    const existed = this.entry(user) !== undefined;
    let e = this.updateReward(user, level);
    let value: Micheline = prim('Unit');
    if (entrypoint === 'stake') {
      this.staked.transfer(call, this.address, user, this.address, amount);
      e = {
        ...e,
        lots: { ...e.lots, [String(e.counter)]: { amount, level: Number(level) } },
        counter: e.counter + 1n,
        balance: e.balance + amount * STAKE_SCALE,
      };
      this.setTotal(this.state.totalSupply + amount * STAKE_SCALE);
      value = int(amount);
    } else if (entrypoint === 'unstake') {
      const lot = e.lots[String(lotKey)];
      const { [String(lotKey)]: _gone, ...rest } = e.lots;
      e = {
        ...e,
        lots: lot.amount === amount ? rest : { ...e.lots, [String(lotKey)]: { ...lot, amount: lot.amount - amount } },
        balance: e.balance - amount * STAKE_SCALE,
      };
      this.setTotal(this.state.totalSupply - amount * STAKE_SCALE);
      const fee = Number(level) - lot.level < YOUNG_BLOCKS ? (amount * FEE_BPS) / 10_000n : 0n;
      this.staked.transfer(call, this.address, this.address, user, amount - fee);
      value = pair(int(amount), int(lotKey));
    } else if (e.rewards > 0n) {
      this.reward.transfer(call, this.address, this.address, user, e.rewards);
      e = { ...e, rewards: 0n };
    }
    this.book.setState<FarmState>(this.address, { ...this.state, users: { ...this.state.users, [user]: e } });
    diff.update(this.state.balances, str(user), entryValue(e));
    return { value, grown: existed ? 0 : 1 };
  }

  private rewardPerToken(level: bigint): bigint {
    const s = this.state;
    const applicable = level < PERIOD_FINISH ? level : PERIOD_FINISH;
    return s.totalSupply === 0n
      ? s.rewardPerTokenStored
      : s.rewardPerTokenStored + ((applicable - s.lastUpdateTime) * REWARD_RATE * E18) / s.totalSupply;
  }

  /** Synthetix's updateReward(user): stores the reward per token and the user's earnings so far. */
  private updateReward(user: string, level: bigint): FarmEntry {
    const rpt = this.rewardPerToken(level);
    this.book.setState<FarmState>(this.address, {
      ...this.state,
      rewardPerTokenStored: rpt,
      lastUpdateTime: level < PERIOD_FINISH ? level : PERIOD_FINISH,
    });
    const e = this.entry(user) ?? { lots: {}, balance: 0n, counter: 0n, rewards: 0n, paid: 0n };
    return { ...e, rewards: e.rewards + (e.balance * (rpt - e.paid)) / E18, paid: rpt };
  }

  private setTotal(totalSupply: bigint): void {
    this.book.setState<FarmState>(this.address, { ...this.state, totalSupply });
  }
}

/** The entry as the node prints it: Pair (Pair {Elt key (Pair amount level)…} balance) counter rewards paid. */
function entryValue(e: FarmEntry): Micheline {
  const lots = Object.entries(e.lots)
    .sort(([a], [b]) => Number(a) - Number(b))
    .map(([k, l]) => prim('Elt', [int(BigInt(k)), pair(int(l.amount), int(l.level))]));
  return pair(pair(lots, int(e.balance)), int(e.counter), int(e.rewards), int(e.paid));
}
