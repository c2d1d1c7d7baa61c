import {
  type AccountBook,
  CallContext,
  type ContractModel,
  entrypoints,
  type Fa12Token,
  int,
  type LazyStorageDiff,
  type Micheline,
  pair,
  prim,
  script,
  str,
  tAddress,
  tBigMap,
  tNat,
  tUnit,
  unit,
} from '../../../../../framework/sandbox/extension';
import { record, recordT } from './layout';
import type { Vester } from './Vester';

type Result = ReturnType<CallContext['contractResult']>;

/** disc_factor and dist_factor precision (`Constants.PRECISION_FACTOR`). */
export const PRECISION = 10n ** 12n;

/** The mainnet savings pools' storage (youves-indexer's `youves_savings` schema), in SmartPy's layout. */
const STORAGE_T = recordT({
  administrators: tBigMap(prim('pair', [tAddress('%owner'), tNat('%token_id')]), tUnit()),
  current_balance: tNat(),
  disc_factor: tNat(),
  dist_factor: tNat(),
  dist_factors: tBigMap(tAddress(), tNat()),
  engine_address: tAddress(),
  last_balance: tNat(),
  sender: tAddress(),
  stakes: tBigMap(tAddress(), tNat()),
  token_address: tAddress(),
  token_id: tNat(),
  total_stake: tNat(),
  vesting_contract: tAddress(),
  vesting_duration_in_seconds: tNat(),
});
const BALANCE_RESPONSE_T = prim('list', [
  prim('pair', [prim('pair', [tAddress('%owner'), tNat('%token_id')], ['%request']), tNat('%balance')]),
]);
const PARAMETER_T = entrypoints(
  ['default', tUnit()],
  ['deposit', tNat()],
  ['internal_bailout', tNat()],
  ['internal_deposit', tNat()],
  ['internal_withdraw', tUnit()],
  ['set_balance', BALANCE_RESPONSE_T],
  ['withdraw', tUnit()],
);

export interface PoolState {
  stakesMap: number;
  distFactorsMap: number;
  administrators: number;
  admin: string;
  engine: string;
  totalStake: bigint;
  discFactor: bigint;
  distFactor: bigint;
  lastBalance: bigint;
  currentBalance: bigint;
  sender: string;
  /** stakes[owner]: the stake discounted to t=0. */
  stakes: Readonly<Record<string, bigint>>;
  vestingSeconds: bigint;
}

/**
 * A Youves savings pool (`contracts/tracker/savings_pool.py`) with its accounting in 10^12 precision:
 *   every deposit/withdraw first folds the pool's token growth into the discount factor:
 *     disc_factor += (current_balance − last_balance)·10^12 / total_stake; last_balance = current_balance
 *   internal_deposit: stakes[sender] += amount·10^12 / disc_factor (total_stake too), last_balance += amount
 *   internal_withdraw: the whole stakes[sender]·disc_factor/10^12 is vested for the saver, the entry deleted.
 * The token growth is what the engine pays the pool (the traffic's accruals). Simplified: the token is
 * FA1.2 and the pool reads its balance directly instead of the FA2 `balance_of` → `set_balance` round
 * trip; the tez distribution (`default`, dist_factor) and `internal_bailout` are not simulated.
 * State is replaced, never mutated (the book snapshots it).
 */
export class SavingsPool implements ContractModel {
  readonly role = 'youves_savings' as const;
  readonly service = 'farm';
  readonly code = script(PARAMETER_T, STORAGE_T);

  constructor(
    private readonly book: AccountBook,
    readonly address: string,
    readonly token: Fa12Token,
    readonly vester: Vester,
  ) {}

  get state(): PoolState {
    return this.book.state<PoolState>(this.address);
  }

  private set(patch: Partial<PoolState>): void {
    this.book.setState<PoolState>(this.address, { ...this.state, ...patch });
  }

  init(diff: LazyStorageDiff, admin: string, engine: string): void {
    const administrators = diff.alloc(prim('pair', [tAddress(), tNat()]), tUnit());
    diff.update(administrators, pair(str(admin), int(0)), unit);
    const state: PoolState = {
      administrators,
      stakesMap: diff.alloc(tAddress(), tNat()),
      distFactorsMap: diff.alloc(tAddress(), tNat()),
      admin,
      engine,
      totalStake: 0n,
      discFactor: PRECISION,
      distFactor: 0n,
      lastBalance: 0n,
      currentBalance: 0n,
      sender: admin,
      stakes: {},
      vestingSeconds: 6n * 7n * 86_400n,
    };
    this.book.setState<PoolState>(this.address, state);
  }

  storage(): Micheline {
    const s = this.state;
    return record({
      administrators: int(s.administrators),
      current_balance: int(s.currentBalance),
      disc_factor: int(s.discFactor),
      dist_factor: int(s.distFactor),
      dist_factors: int(s.distFactorsMap),
      engine_address: str(s.engine),
      last_balance: int(s.lastBalance),
      sender: str(s.sender),
      stakes: int(s.stakesMap),
      token_address: str(this.token.address),
      token_id: int(0),
      total_stake: int(s.totalStake),
      vesting_contract: str(this.vester.address),
      vesting_duration_in_seconds: int(s.vestingSeconds),
    });
  }

  /** What `owner` would withdraw now, before the pool's next growth is folded in. */
  valueOf(owner: string): bigint {
    return ((this.state.stakes[owner] ?? 0n) * this.state.discFactor) / PRECISION;
  }

  /** `deposit nat` by `sender`: the call's own result; internal_deposit and its transfer go to `call.internal`. */
  deposit(call: CallContext, sender: string, amount: bigint): Result {
    this.set({ sender });
    const top = call.contractResult(this, call.newDiff(), 3000, 0);
    this.fold();
    const s = this.state;
    const discounted = (amount * PRECISION) / s.discFactor;
    const existed = s.stakes[sender] !== undefined;
    const stake = (s.stakes[sender] ?? 0n) + discounted;
    this.set({
      stakes: { ...s.stakes, [sender]: stake },
      totalStake: s.totalStake + discounted,
      lastBalance: s.lastBalance + amount,
    });
    const diff = call
      .newDiff()
      .update(s.stakesMap, str(sender), int(stake))
      .update(s.distFactorsMap, str(sender), int(s.distFactor));
    call.pushCall(
      this.address,
      this,
      0n,
      'internal_deposit',
      int(amount),
      call.contractResult(this, diff, 6000, existed ? 0 : 2),
    );
    this.token.transfer(call, this.address, sender, this.address, amount);
    return top;
  }

  /** `withdraw unit` by `sender`: internal_withdraw vests the saver's whole value (stake and growth). */
  withdraw(call: CallContext, sender: string): Result {
    this.set({ sender });
    const top = call.contractResult(this, call.newDiff(), 3000, 0);
    this.fold();
    const s = this.state;
    const stake = s.stakes[sender];
    if (stake === undefined) throw new Error('youves savings: withdraw without a stake');
    const amount = (stake * s.discFactor) / PRECISION;
    const { [sender]: _gone, ...stakes } = s.stakes;
    this.set({ stakes, totalStake: s.totalStake - stake, lastBalance: s.lastBalance - amount });
    const diff = call
      .newDiff()
      .update(s.stakesMap, str(sender), undefined)
      .update(s.distFactorsMap, str(sender), undefined);
    call.pushCall(this.address, this, 0n, 'internal_withdraw', unit, call.contractResult(this, diff, 6000, 0));
    const deadline = BigInt(Math.floor(Date.parse(call.ctx.timestamp) / 1000)) + s.vestingSeconds;
    this.vester.vest(call, this.address, sender, amount, deadline);
    return top;
  }

  /** sub_update_factor, with the balance the set_balance callback would report. */
  private fold(): void {
    const s = this.state;
    const current = this.token.balanceOf(this.address);
    if (s.totalStake === 0n) return this.set({ currentBalance: current });
    this.set({
      currentBalance: current,
      discFactor: s.discFactor + ((current - s.lastBalance) * PRECISION) / s.totalStake,
      lastBalance: current,
    });
  }
}
