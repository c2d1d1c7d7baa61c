import type { IndexContext } from '../../../framework';
import type {
  LendingAccount,
  LendingAction,
  LendingDecl,
  LendingHolding,
  LendingKey,
  LendingOrigin,
  LendingRates,
  LendingSink,
  LendingSupply,
} from '../../../plugins/defi-lending/core/LendingAdapter';

export type LendingSinkCall =
  | { readonly call: 'market'; readonly decl: LendingDecl; readonly supply: LendingSupply }
  | {
      readonly call: 'action';
      readonly market: LendingKey;
      readonly action: LendingAction;
      readonly supply: LendingSupply;
      readonly origin: LendingOrigin;
    }
  | { readonly call: 'accrue'; readonly market: LendingKey; readonly supply: LendingSupply }
  | {
      readonly call: 'account';
      readonly market: LendingKey;
      readonly owner: string;
      readonly account: LendingAccount;
      readonly rates: LendingRates | undefined;
    }
  | { readonly call: 'collateral'; readonly market: LendingKey; readonly owner: string; readonly used: boolean };

/** What a lending adapter reported, in order, answering `supply()` from its own reports as the core does. */
export class RecordingLendingSink implements LendingSink {
  readonly calls: LendingSinkCall[] = [];
  private readonly supplies = new Map<string, LendingSupply>();

  async market(_ctx: IndexContext, decl: LendingDecl, supply: LendingSupply): Promise<void> {
    this.supplies.set(`${decl.contract}_${decl.poolId}`, supply);
    this.calls.push({ call: 'market', decl, supply });
  }

  async supply(_ctx: IndexContext, market: LendingKey): Promise<LendingSupply | undefined> {
    return this.supplies.get(`${market.contract}_${market.poolId}`);
  }

  async position(): Promise<LendingHolding | undefined> {
    return undefined;
  }

  async action(
    _ctx: IndexContext,
    market: LendingKey,
    action: LendingAction,
    supply: LendingSupply,
    origin: LendingOrigin,
  ): Promise<void> {
    if (!this.supplies.has(`${market.contract}_${market.poolId}`))
      throw new Error(`action on undeclared market ${market.contract}`);
    this.supplies.set(`${market.contract}_${market.poolId}`, supply);
    this.calls.push({ call: 'action', market, action, supply, origin });
  }

  async account(
    _ctx: IndexContext,
    market: LendingKey,
    owner: string,
    account: LendingAccount,
    rates: LendingRates | undefined,
  ): Promise<void> {
    if (!this.supplies.has(`${market.contract}_${market.poolId}`))
      throw new Error(`account figures on undeclared market ${market.contract}`);
    this.calls.push({ call: 'account', market, owner, account, rates });
  }

  async accrue(_ctx: IndexContext, market: LendingKey, supply: LendingSupply): Promise<void> {
    if (!this.supplies.has(`${market.contract}_${market.poolId}`))
      throw new Error(`accrual on undeclared market ${market.contract}`);
    this.supplies.set(`${market.contract}_${market.poolId}`, supply);
    this.calls.push({ call: 'accrue', market, supply });
  }

  async collateral(_ctx: IndexContext, market: LendingKey, owner: string, used: boolean): Promise<void> {
    if (!this.supplies.has(`${market.contract}_${market.poolId}`))
      throw new Error(`collateral flag on undeclared market ${market.contract}`);
    this.calls.push({ call: 'collateral', market, owner, used });
  }
}
