import {
  addressBytes,
  bool,
  CallContext,
  type ContractModel,
  entrypoints,
  namedPairT,
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
  tTimestamp,
  type AccountBook,
} from '../../../../../framework/sandbox/extension';

const P = 10n ** 18n;
/** An empty map or set. */
const EMPTY: Micheline = [];
/** The contracts' burn/"nobody" address: harvest fees of stakers without a referrer go there. */
const ZERO = 'tz1ZZZZZZZZZZZZZZZZZZZZZZZZZZZZNkiRg';

export interface TFarmParams {
  stake: Fa12Token;
  reward: Fa12Token;
  /** Fees in 10^18 precision. */
  harvestFee: bigint;
  withdrawalFee: bigint;
  timelock: bigint;
  /** Reward per second ×10^18. */
  rewardPerSecond: bigint;
  start: bigint;
  end: bigint;
}

export interface TFarmState extends Omit<TFarmParams, 'stake' | 'reward'> {
  stake: string;
  reward: string;
  upd: bigint;
  rewardPerShare: bigint;
  staked: bigint;
  claimed: bigint;
}

/** A reward transfer the call orders: receiver and amount. */
type Pay = [string, bigint];

export interface UserState {
  lastStaked: bigint;
  staked: bigint;
  earned: bigint;
  claimed: bigint;
  prevEarned: bigint;
}

interface State {
  farms: number;
  usersInfo: number;
  others: number[];
  list: readonly TFarmState[];
  users: Readonly<Record<string, UserState>>;
  admin: string;
}

const tOption = (t: Micheline, a: string) => prim('option', [t], [a]);
const tToken = (a: string) => prim('or', [tAddress('%fA12'), pairT(tAddress('%token'), tNat('%id'))], [a]);
const FARM_T = pairT(
  pairT(tNat('%harvest_fee'), tNat('%withdrawal_fee')),
  tTimestamp('%upd'),
  pairT(tToken('%staked_token'), prim('bool', undefined, ['%is_v2_lp'])),
  tToken('%reward_token'),
  tNat('%timelock'),
  prim('key_hash', undefined, ['%current_delegated']),
  prim('key_hash', undefined, ['%next_candidate']),
  prim('bool', undefined, ['%paused']),
  tNat('%reward_per_second'),
  tNat('%reward_per_share'),
  tNat('%staked'),
  tNat('%claimed'),
  tTimestamp('%start_time'),
  tTimestamp('%end_time'),
  tNat('%fid'),
);
const USER_T = pairT(
  tTimestamp('%last_staked'),
  tNat('%staked'),
  tNat('%earned'),
  tNat('%claimed'),
  tNat('%prev_earned'),
  tNat('%prev_staked'),
  prim('set', [tAddress()], ['%allowances']),
);
const USER_KEY_T = pairT(tNat(), tAddress());
/** The other big maps of the storage record, in order after farms: referrers, users_info comes second. */
const STORAGE_T = pairT(
  namedPairT(
    '%storage',
    tBigMap(tNat(), FARM_T, '%farms'),
    tBigMap(tAddress(), tAddress(), '%referrers'),
    tBigMap(USER_KEY_T, USER_T, '%users_info'),
    tBigMap(pairT(tNat(), prim('key_hash')), tNat(), '%votes'),
    tBigMap(USER_KEY_T, prim('key_hash'), '%candidates'),
    tBigMap(prim('key_hash'), pairT(tNat('%period'), tTimestamp('%start')), '%banned_bakers'),
    tBigMap(
      tNat(),
      pairT(tNat('%token_id'), prim('map', [prim('string'), tBytes()], ['%token_info'])),
      '%token_metadata',
    ),
    namedPairT('%qsgov', tAddress('%token'), tNat('%id')),
    tAddress('%qsgov_lp'),
    tAddress('%admin'),
    tAddress('%pending_admin'),
    tAddress('%burner'),
    tAddress('%baker_registry'),
    tNat('%farms_count'),
  ),
  tBigMap(tNat(), tBytes(), '%t_farm_lambdas'),
  tBigMap(prim('string'), tBytes(), '%metadata'),
);
const DEPOSIT_T = pairT(
  tNat('%fid'),
  tNat('%amt'),
  tOption(tAddress(), '%referrer'),
  tAddress('%rewards_receiver'),
  tOption(prim('key_hash'), '%candidate'),
);
const WITHDRAW_T = pairT(tNat('%fid'), tNat('%amt'), tAddress('%receiver'), tAddress('%rewards_receiver'));
const HARVEST_T = pairT(tNat('%fid'), tAddress('%rewards_receiver'));
const ADD_T = pairT(
  pairT(tNat('%harvest_fee'), tNat('%withdrawal_fee')),
  pairT(tToken('%staked_token'), prim('bool', undefined, ['%is_v2_lp'])),
  prim('map', [prim('string'), tBytes()], ['%token_info']),
  tToken('%reward_token'),
  prim('bool', undefined, ['%paused']),
  tNat('%timelock'),
  tTimestamp('%start_time'),
  tTimestamp('%end_time'),
  tNat('%reward_per_second'),
);

export type TFarmCall =
  | { entrypoint: 'deposit' | 'withdraw' | 'harvest'; fid: number; amount: bigint }
  | { entrypoint: 'add_new_farm'; farm: TFarmParams };

/**
 * QuipuSwap's TFarm (t_farm_lambdas.ligo, without baker voting: its farms stake FA1.2 tokens, not
 * v2 LPs), with the contract's accounting in 10^18 precision:
 *   update_farm_rewards: rps += (min(now, end) − upd)·reward_per_second / staked (from start, while upd ≤ end)
 *   earned += staked·rps − prev_earned; a claim pays ⌊earned/10^18⌋ less the harvest fee (to the referrer)
 *   before the timelock ends, rewards go to the admin and withdrawals leave a fee staked for the farm.
 * State is replaced, never mutated (the book snapshots it).
 */
export class TFarm implements ContractModel {
  readonly role = 'quipuswap_tfarm' as const;
  readonly service = 'farm';
  readonly code = script(
    entrypoints(['add_new_farm', ADD_T], ['deposit', DEPOSIT_T], ['harvest', HARVEST_T], ['withdraw', WITHDRAW_T]),
    STORAGE_T,
  );

  constructor(
    private readonly book: AccountBook,
    readonly address: string,
    private readonly tokens: (address: string) => Fa12Token,
  ) {}

  get state(): State {
    return this.book.state<State>(this.address);
  }

  init(diff: LazyStorageDiff, admin: string): void {
    const farms = diff.alloc(tNat(), FARM_T);
    const referrers = diff.alloc(tAddress(), tAddress());
    const usersInfo = diff.alloc(USER_KEY_T, USER_T);
    const others = [
      diff.alloc(pairT(tNat(), prim('key_hash')), tNat()),
      diff.alloc(USER_KEY_T, prim('key_hash')),
      diff.alloc(prim('key_hash'), pairT(tNat(), tTimestamp())),
      diff.alloc(tNat(), pairT(tNat(), prim('map', [prim('string'), tBytes()]))),
      diff.alloc(tNat(), tBytes()),
      diff.alloc(prim('string'), tBytes()),
    ];
    this.book.setState<State>(this.address, {
      farms,
      usersInfo,
      others: [referrers, ...others],
      list: [],
      users: {},
      admin,
    });
  }

  storage(): Micheline {
    const s = this.state;
    const [referrers, votes, candidates, banned, meta, lambdas, metadata] = s.others;
    return pair(
      pair(
        int(s.farms),
        int(referrers),
        int(s.usersInfo),
        int(votes),
        int(candidates),
        int(banned),
        int(meta),
        pair(addressBytes(this.address), int(0)),
        addressBytes(this.address),
        str(s.admin),
        str(s.admin),
        addressBytes(this.address),
        addressBytes(this.address),
        int(s.list.length),
      ),
      int(lambdas),
      int(metadata),
    );
  }

  farm(fid: number): TFarmState | undefined {
    return this.state.list[fid];
  }

  user(fid: number, address: string): UserState | undefined {
    return this.state.users[`${fid}:${address}`];
  }

  /** The rewards a claim now would pay `address` on farm `fid` before the harvest fee. */
  claimable(fid: number, address: string, now: bigint): bigint {
    const f = this.updated(this.farm(fid)!, now);
    const u = this.user(fid, address);
    return u ? (u.earned + u.staked * f.rewardPerShare - u.prevEarned) / P : 0n;
  }

  /** Applies a call; returns its parameter value and the big map entries it added. */
  apply(call: CallContext, diff: LazyStorageDiff, sender: string, c: TFarmCall): { value: Micheline; grown: number } {
    const now = BigInt(Math.floor(Date.parse(call.ctx.timestamp) / 1000));
    if (c.entrypoint === 'add_new_farm') return this.add(call, diff, sender, c.farm, now);
    const { fid, amount } = c;
    let f = this.updated(this.farm(fid)!, now);
    const existed = this.user(fid, sender) !== undefined;
    let u = this.user(fid, sender) ?? { lastStaked: 0n, staked: 0n, earned: 0n, claimed: 0n, prevEarned: 0n };
    u = { ...u, earned: u.earned + u.staked * f.rewardPerShare - u.prevEarned };
    const unlocked = now - u.lastStaked >= f.timelock || now >= f.end;
    const stake = this.tokens(f.stake);
    let grown = existed ? 0 : 1;
    let back = amount;
    let pays: Pay[] = [];
    if (unlocked) [u, f, pays] = this.claim(u, f, sender, ZERO);
    else if (c.entrypoint === 'withdraw') {
      [u, f, pays] = this.claim(u, f, this.state.admin, undefined);
      const fee = (amount * f.withdrawalFee) / P;
      back = amount - fee;
      if (fee > 0n) {
        const self = this.user(fid, this.address) ?? {
          lastStaked: 0n,
          staked: 0n,
          earned: 0n,
          claimed: 0n,
          prevEarned: 0n,
        };
        const staked = self.staked + fee;
        grown += this.user(fid, this.address) ? 0 : 1;
        this.setUser(diff, fid, this.address, {
          ...self,
          earned: self.earned + self.staked * f.rewardPerShare - self.prevEarned,
          staked,
          prevEarned: staked * f.rewardPerShare,
          lastStaked: now,
        });
      }
    } else if (c.entrypoint === 'harvest') throw new Error('TFarm/timelock-is-not-finished');
    let value: Micheline;
    if (c.entrypoint === 'deposit') {
      u = { ...u, staked: u.staked + amount, lastStaked: amount > 0n ? now : u.lastStaked };
      f = { ...f, staked: f.staked + amount };
      if (amount > 0n) stake.transfer(call, this.address, sender, this.address, amount);
      value = pair(int(fid), int(amount), prim('None'), str(sender), prim('None'));
    } else if (c.entrypoint === 'withdraw') {
      u = { ...u, staked: u.staked - amount };
      f = { ...f, staked: f.staked - back };
      stake.transfer(call, this.address, this.address, sender, back);
      value = pair(int(fid), int(amount), str(sender), str(sender));
    } else value = pair(int(fid), str(sender));
    // The contract lists the stake transfer first, then the reward and the harvest fee.
    for (const [to, n] of pays) this.tokens(f.reward).transfer(call, this.address, this.address, to, n);
    u = { ...u, prevEarned: u.staked * f.rewardPerShare };
    this.setUser(diff, fid, sender, u);
    this.setFarm(diff, fid, f);
    return { value, grown };
  }

  private add(
    call: CallContext,
    diff: LazyStorageDiff,
    sender: string,
    p: TFarmParams,
    now: bigint,
  ): { value: Micheline; grown: number } {
    const start = p.start <= now ? now : p.start;
    const fid = this.state.list.length;
    const f: TFarmState = {
      ...p,
      stake: p.stake.address,
      reward: p.reward.address,
      start,
      upd: start,
      rewardPerShare: 0n,
      staked: 0n,
      claimed: 0n,
    };
    this.book.setState<State>(this.address, { ...this.state, list: [...this.state.list, f] });
    this.setFarm(diff, fid, f);
    p.reward.transfer(call, this.address, sender, this.address, ((p.end - p.start) * p.rewardPerSecond) / P);
    const value = pair(
      pair(int(p.harvestFee), int(p.withdrawalFee)),
      pair(prim('Left', [str(p.stake.address)]), bool(false)),
      EMPTY,
      prim('Left', [str(p.reward.address)]),
      bool(false),
      int(p.timelock),
      int(p.start),
      int(p.end),
      int(p.rewardPerSecond),
    );
    return { value, grown: 2 };
  }

  /** update_farm_rewards. */
  private updated(f: TFarmState, now: bigint): TFarmState {
    if (now < f.start || f.upd > f.end) return f;
    const rps =
      f.staked === 0n
        ? f.rewardPerShare
        : f.rewardPerShare + ((now > f.end ? f.end - f.upd : now - f.upd) * f.rewardPerSecond) / f.staked;
    return { ...f, rewardPerShare: rps, upd: now };
  }

  /** claim_rewards (to `receiver`, harvest fee to the referrer) or, with no fee receiver, transfer_rewards_to_admin. */
  private claim(
    u: UserState,
    f: TFarmState,
    receiver: string,
    feeReceiver: string | undefined,
  ): [UserState, TFarmState, Pay[]] {
    const earned = u.earned / P;
    if (earned === 0n) return [u, f, []];
    const fee = feeReceiver === undefined ? 0n : (earned * f.harvestFee) / P;
    return [
      { ...u, earned: u.earned - earned * P, claimed: u.claimed + earned },
      { ...f, claimed: f.claimed + earned },
      fee > 0n
        ? [
            [receiver, earned - fee],
            [feeReceiver!, fee],
          ]
        : [[receiver, earned]],
    ];
  }

  private setUser(diff: LazyStorageDiff, fid: number, address: string, u: UserState): void {
    this.book.setState<State>(this.address, {
      ...this.state,
      users: { ...this.state.users, [`${fid}:${address}`]: u },
    });
    diff.update(
      this.state.usersInfo,
      pair(int(fid), str(address)),
      pair(int(u.lastStaked), int(u.staked), int(u.earned), int(u.claimed), int(u.prevEarned), int(u.staked), EMPTY),
    );
  }

  private setFarm(diff: LazyStorageDiff, fid: number, f: TFarmState): void {
    const list = [...this.state.list];
    list[fid] = f;
    this.book.setState<State>(this.address, { ...this.state, list });
    const token = (a: string) => prim('Left', [str(a)]);
    diff.update(
      this.state.farms,
      int(fid),
      pair(
        pair(int(f.harvestFee), int(f.withdrawalFee)),
        int(f.upd),
        pair(token(f.stake), bool(false)),
        token(f.reward),
        int(f.timelock),
        str(ZERO),
        str(ZERO),
        bool(false),
        int(f.rewardPerSecond),
        int(f.rewardPerShare),
        int(f.staked),
        int(f.claimed),
        int(f.start),
        int(f.end),
        int(fid),
      ),
    );
  }
}
