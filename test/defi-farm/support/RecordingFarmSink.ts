import type { IndexContext } from '../../../framework';
import type {
  FarmAction,
  FarmDecl,
  FarmKey,
  FarmOrigin,
  FarmSink,
  FarmSupply,
} from '../../../plugins/defi-farm/core/FarmAdapter';

export type FarmSinkCall =
  | { readonly call: 'farm'; readonly decl: FarmDecl; readonly supply: FarmSupply }
  | {
      readonly call: 'action';
      readonly farm: FarmKey;
      readonly action: FarmAction;
      readonly supply: FarmSupply;
      readonly origin: FarmOrigin;
    };

/** What a farm adapter reported, in order, answering `supply()` from its own reports as the core does. */
export class RecordingFarmSink implements FarmSink {
  readonly calls: FarmSinkCall[] = [];
  private readonly supplies = new Map<string, FarmSupply>();

  async farm(_ctx: IndexContext, decl: FarmDecl, supply: FarmSupply): Promise<void> {
    this.supplies.set(`${decl.contract}_${decl.poolId}`, supply);
    this.calls.push({ call: 'farm', decl, supply });
  }

  async supply(_ctx: IndexContext, farm: FarmKey): Promise<FarmSupply | undefined> {
    return this.supplies.get(`${farm.contract}_${farm.poolId}`);
  }

  /** The owner's stake from its reported deposits and withdrawals, as the core keeps it. */
  async stake(_ctx: IndexContext, farm: FarmKey, owner: string): Promise<bigint> {
    let n = 0n;
    for (const c of this.actions()) {
      if (
        c.farm.contract !== farm.contract ||
        c.farm.poolId !== farm.poolId ||
        c.action.kind === 'update' ||
        c.action.owner !== owner
      )
        continue;
      if (c.action.kind === 'deposit') n += c.action.volume;
      if (c.action.kind === 'withdraw') n -= c.action.volume;
    }
    return n;
  }

  async action(
    _ctx: IndexContext,
    farm: FarmKey,
    action: FarmAction,
    supply: FarmSupply,
    origin: FarmOrigin,
  ): Promise<void> {
    if (!this.supplies.has(`${farm.contract}_${farm.poolId}`))
      throw new Error(`action on undeclared farm ${farm.contract}`);
    this.supplies.set(`${farm.contract}_${farm.poolId}`, supply);
    this.calls.push({ call: 'action', farm, action, supply, origin });
  }

  actions(): Array<Extract<FarmSinkCall, { call: 'action' }>> {
    return this.calls.filter((c): c is Extract<FarmSinkCall, { call: 'action' }> => c.call === 'action');
  }
}
