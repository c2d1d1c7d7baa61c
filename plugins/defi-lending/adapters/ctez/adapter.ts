import type { GroupMatch, HandlerRegistry, MatchedStep } from '../../../../framework';
import { PRECISION } from '../../Interest';
import type {
  LendingAction,
  LendingAdapter,
  LendingEventType,
  LendingSink,
  LendingSupply,
} from '../../core/LendingAdapter';
import { ctezStorage, type Oven, type OvenCall, ovenCall, ovensWritten } from './storage';
import { CTEZ_1, CTEZ_2 } from './types';

/** The oven entrypoints of the ctez main contract, ctez 1 and ctez 2 names, and what each one is. */
const CALLS: Record<string, 'create' | 'deposit' | 'withdraw' | 'mint_or_burn' | 'liquidate'> = {
  create: 'create',
  create_oven: 'create',
  register_deposit: 'deposit',
  register_oven_deposit: 'deposit',
  withdraw: 'withdraw',
  withdraw_from_oven: 'withdraw',
  mint_or_burn: 'mint_or_burn',
  liquidate: 'liquidate',
  liquidate_oven: 'liquidate',
};

/** Its place among the adapters (framework `discoverFolders`), kept from before discovery: records keep their order. */
export const order = 2;

/**
 * ctez ovens (entity `ctez`): the ctez main contract is one market (`pool_id` 0) lending ctez against
 * tez; each oven (handle `(id, owner)`) is a position `{pool}:{owner}:{id}` with `stake_id` = the oven
 * id. Recognized by the entrypoint `mint_or_burn` and a storage with an `ovens` big map and the ctez
 * token address. `create`/`register_deposit` are deposits (tez into the oven), `withdraw` a withdrawal,
 * `mint_or_burn` a borrow (quantity > 0) or a repay (< 0), `liquidate` a liquidation (ctez burned;
 * the tez taken from the oven is sent away from the position). ctez keeps no totals: the market's
 * totals are the recorded ones moved by the change of the oven's entry the call wrote (so the market
 * must be indexed from its origination). ctez 2 capitalizes a fee into the outstanding ctez at each
 * call (outstanding × fee index now / the oven's fee index): reported as the oven's borrow (×10^18)
 * and its index, so the core derives interest with that formula.
 */
export const ctezAdapter: LendingAdapter = {
  name: 'ctez',
  entities: ['ctez'],
  register(r: HandlerRegistry, sink: LendingSink): void {
    for (const code of [CTEZ_1, CTEZ_2]) r.knownCode(code);
    r.onOperationGroup(
      [{ name: 'ovens', destination: { entrypoints: ['mint_or_burn'] }, entrypoint: Object.keys(CALLS) }],
      async (m, ctx) => {
        const step = m.steps.ovens!;
        const s = ctezStorage(step.storage);
        const call = CALLS[step.entrypoint ?? ''];
        const p = s && ovenCall(s, step);
        if (!s || !call || !p) return;
        const handle = call === 'deposit' || call === 'liquidate' ? p.handle : { id: p.id, owner: step.sender };
        const oven = ovensWritten(s, step.bigMapDiffs).find((o) => o.id === handle?.id && o.owner === handle?.owner);
        const action = oven && decode(m, step, call, p, oven);
        if (!oven || !action) return;
        const key = { contract: step.contract, poolId: 0 };
        const before = await sink.supply(ctx, key);
        if (!before)
          await sink.market(
            ctx,
            { ...key, entity: 'ctez', debt: { standard: 'fa1.2', contract: s.ctez }, collateral: { standard: 'tez' } },
            { totalCollateral: 0n, totalDebt: 0n },
          );
        const held = (await sink.position(ctx, key, oven.owner, oven.id)) ?? { balance: 0n, debt: 0n };
        const was = before ?? { totalCollateral: 0n, totalDebt: 0n };
        const supply: LendingSupply = {
          totalCollateral: was.totalCollateral + oven.tezBalance - held.balance,
          totalDebt: was.totalDebt + oven.ctezOutstanding - held.debt,
          rates: { borrowIndex: s.feeIndex ?? 1n, liquidity: 0n, shares: 0n },
        };
        await sink.action(ctx, key, action, supply, { match: m, step });
        // ctez 2 grew its fee index: every oven's pending fee follows.
        if (s.feeIndex !== undefined) await sink.accrue(ctx, key, supply);
      },
    );
  },
};

/** The event of one oven call; undefined for a `mint_or_burn` of 0 (nothing moved). */
function decode(
  m: GroupMatch,
  step: MatchedStep,
  call: (typeof CALLS)[string],
  p: OvenCall,
  oven: Oven,
): LendingAction | undefined {
  const caller = step.sender ?? m.signer ?? '';
  const base = {
    owner: oven.owner,
    sender: caller,
    receiver: oven.owner,
    fee: 0n,
    stakeId: oven.id,
    account: { borrow: { scaled: oven.ctezOutstanding * PRECISION, index: oven.feeIndex ?? 1n } },
  };
  const kind = (k: LendingEventType, volume: bigint, more: Partial<LendingAction> = {}): LendingAction => ({
    ...base,
    kind: k,
    volume,
    ...more,
  });
  switch (call) {
    case 'create':
      return kind('deposit', step.amount);
    case 'deposit':
      // The oven calls in with the tez it received; the depositor is whoever sent them to the oven.
      return kind('deposit', p.amount ?? 0n, { sender: m.signer ?? caller });
    case 'withdraw':
      return kind('withdraw', paidOut(m, step, oven), { receiver: p.to ?? oven.owner });
    case 'mint_or_burn': {
      const q = p.quantity ?? 0n;
      return q === 0n ? undefined : kind(q > 0n ? 'borrow' : 'repay', q > 0n ? q : -q);
    }
    case 'liquidate':
      return kind('liquidate', p.quantity ?? 0n, { receiver: p.to ?? caller, moved: { sent: paidOut(m, step, oven) } });
  }
}

/** Tez the oven paid out after the call (its `withdraw` sends them on the main contract's order). */
function paidOut(m: GroupMatch, step: MatchedStep, oven: Oven): bigint {
  return m.group
    .filter(
      (o) =>
        o.opC === step.op.opC &&
        o.opI > step.op.opI &&
        o.sender === oven.address &&
        o.type === 'transaction' &&
        !o.entrypoint,
    )
    .reduce((n, o) => n + o.volume, 0n);
}
