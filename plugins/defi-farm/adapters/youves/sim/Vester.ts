import {
  annotated,
  type AccountBook,
  CallContext,
  type ContractModel,
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
  tTimestamp,
} from '../../../../../framework/sandbox/extension';
import { record, recordT } from './layout';

/** `vest (list {address, token_amount, deadline})`: what a savings pool sends its withdrawals to. */
export const VEST_T = prim('list', [
  prim('pair', [tAddress('%address'), prim('pair', [tNat('%token_amount'), tTimestamp('%deadline')])]),
]);
const LEDGER_KEY_T = prim('pair', [tAddress('%owner'), tAddress('%locker')]);
const LEDGER_VALUE_T = prim('pair', [tNat('%token_amount'), tTimestamp('%deadline')]);
const STORAGE_T = recordT({
  ledger: tBigMap(LEDGER_KEY_T, LEDGER_VALUE_T),
  token_address: tAddress(),
  token_id: tNat(),
});
const DIVEST_T = prim('list', [prim('pair', [tAddress('%locker'), tAddress('%recipient')])]);

interface State {
  ledger: number;
  /** Locked amount by `owner:locker`. */
  locked: Readonly<Record<string, bigint>>;
}

/**
 * Youves' vesting contract (`contracts/tracker/vester.py`): `vest` locks tokens for an owner until a
 * deadline, taking them from the caller (the savings pool) into its own balance; `divest` is not
 * simulated (the savers' vested tokens stay locked on the sandbox chain).
 */
export class Vester implements ContractModel {
  readonly role = 'youves_vester' as const;
  readonly code = script(prim('or', [annotated(DIVEST_T, '%divest'), annotated(VEST_T, '%vest')]), STORAGE_T);

  constructor(
    private readonly book: AccountBook,
    readonly address: string,
    readonly token: Fa12Token,
  ) {}

  private get state(): State {
    return this.book.state<State>(this.address);
  }

  init(diff: LazyStorageDiff): void {
    this.book.setState<State>(this.address, { ledger: diff.alloc(LEDGER_KEY_T, LEDGER_VALUE_T), locked: {} });
  }

  storage(): Micheline {
    return record({ ledger: int(this.state.ledger), token_address: str(this.token.address), token_id: int(0) });
  }

  /**
   * The pool `locker` vests `amount` for `owner` until `deadline` (seconds): the call, then the token transfer it
   * makes.
   */
  vest(call: CallContext, locker: string, owner: string, amount: bigint, deadline: bigint): void {
    const key = `${owner}:${locker}`;
    const before = this.state.locked[key];
    const locked = (before ?? 0n) + amount;
    this.book.setState<State>(this.address, { ...this.state, locked: { ...this.state.locked, [key]: locked } });
    const diff = call
      .newDiff()
      .update(this.state.ledger, pair(str(owner), str(locker)), pair(int(locked), int(deadline)));
    call.pushCall(
      locker,
      this,
      0n,
      'vest',
      [pair(str(owner), int(amount), int(deadline))],
      call.contractResult(this, diff, 4000, before === undefined ? 1 : 0),
    );
    this.token.transfer(call, this.address, locker, this.address, amount);
  }
}
