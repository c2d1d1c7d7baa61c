import type { HandlerRegistry, NormalizedOperation } from '../../../../framework';
import { fa12Transfer, fa2Transfers, PoolCall, type TokenMove } from '../../../../framework/defi';
import type { FarmAction, FarmAdapter, FarmSink, FarmSupply, FarmTokenRef } from '../../core/FarmAdapter';
import { PRECISION, type SavingsStorage, savingsStorage, stakeWritten } from './storage';
import { YOUVES_SAVINGS_V2 } from './types';

const ENTITY = 'youves_savings';
/** The entrypoints that recognize a savings pool; the work is done in the internal steps the pool calls itself. */
const POOL_ENTRYPOINTS = ['deposit', 'withdraw', 'internal_deposit', 'internal_withdraw'];

/**
 * Youves savings pools (entity `youves_savings`): one farm per contract (pool id 0) whose stake and
 * reward are the same synthetic token. `deposit nat` and `withdraw unit` only fetch the pool's balance
 * and call `internal_deposit`/`internal_withdraw` on the pool itself, which do the accounting; the
 * saver is the storage's `sender`. Growth (what the engine pays the pool) is folded into `disc_factor`
 * by every call, and a withdrawal vests the saver's whole value: the stake deposited plus the growth.
 */
export const youvesSavingsAdapter: FarmAdapter = {
  name: 'youves',
  entities: [ENTITY],
  register(r: HandlerRegistry, sink: FarmSink): void {
    r.knownCode(YOUVES_SAVINGS_V2);
    r.onOperationGroup(
      [
        {
          name: 'pool',
          destination: { entrypoints: POOL_ENTRYPOINTS },
          entrypoint: ['internal_deposit', 'internal_withdraw'],
        },
      ],
      async (m, ctx) => {
        const step = m.steps.pool!;
        const s = savingsStorage(step.storage);
        if (!s || !s.sender) return;
        const key = { contract: step.contract, poolId: 0 };
        const token: FarmTokenRef = { standard: 'fa2', contract: s.tokenAddress, tokenId: s.tokenId };
        const before = await sink.supply(ctx, key);
        const owner = s.sender;
        const moves = spanMoves(new PoolCall(m, step)).filter(
          (mv) => mv.token === s.tokenAddress && mv.tokenId === s.tokenId,
        );
        const shares = stakeWritten(s, step.bigMapDiffs, owner) ?? 0n;
        let action: FarmAction;
        if (step.entrypoint === 'internal_deposit') {
          const volume = moves
            .filter((mv) => mv.from === owner && mv.to === step.contract)
            .reduce((n, mv) => n + mv.amount, 0n);
          action = { kind: 'deposit', sender: owner, receiver: owner, owner, volume, fee: 0n, reward: 0n, shares };
        } else action = await withdrawal(s, step.contract, owner, moves, await sink.stake(ctx, key, owner));
        // The stake is what savers deposited and have not withdrawn; the growth above it is their reward
        // (the index values it): total_stake·disc_factor would count that growth as stake.
        const moved = action.kind === 'deposit' ? action.volume : action.kind === 'withdraw' ? -action.volume : 0n;
        const accrual = { index: s.discFactor, precision: PRECISION };
        const supply: FarmSupply = { totalStake: (before?.totalStake ?? 0n) + moved, remainingRewards: null, accrual };
        if (!before) await sink.farm(ctx, { ...key, entity: ENTITY, stake: token, reward: token }, supply);
        await sink.action(ctx, key, action, supply, { match: m, step });
      },
    );
  },
};

/**
 * internal_withdraw vests stakes[owner]·disc_factor/10^12 (the vesting contract takes it from the
 * pool): the stake deposited comes back first, the rest is the reward. Rounding (the stake discounted
 * at deposit) can pay back a little less than deposited: that shortfall is the `fee` the pool keeps.
 */
function withdrawal(s: SavingsStorage, pool: string, owner: string, moves: TokenMove[], principal: bigint): FarmAction {
  const paid = moves
    .filter((mv) => mv.from === pool && mv.to === s.vestingContract)
    .reduce((n, mv) => n + mv.amount, 0n);
  const back = paid < principal ? paid : principal;
  return {
    kind: 'withdraw',
    sender: owner,
    receiver: owner,
    owner,
    volume: principal,
    fee: principal - back,
    reward: paid - back,
    pending: 0n,
    shares: 0n,
  };
}

/** Token transfers anywhere in the call's span: the vesting contract, not the pool, moves the withdrawal. */
function spanMoves(call: PoolCall): TokenMove[] {
  return call.span.flatMap((o: NormalizedOperation): TokenMove[] => {
    if (o.entrypoint !== 'transfer' || !o.receiver) return [];
    const fa12 = fa12Transfer(o.parameters);
    return fa12
      ? [{ token: o.receiver, tokenId: 0n, from: fa12.from, to: fa12.to, amount: fa12.value }]
      : fa2Transfers(o.receiver, o.parameters);
  });
}
