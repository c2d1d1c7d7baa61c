import type { HandlerRegistry } from '../../../../framework';
import { PoolCall } from '../../../../framework/defi';
import type { FarmAction, FarmAdapter, FarmSink, FarmSupply, FarmTokenRef } from '../../core/FarmAdapter';
import { type FarmCall, farmCall, type FarmStorage, type OwnerEntry, ownerEntry, remainingRewards } from './storage';

const ENTRYPOINTS = ['stake', 'unstake', 'GetReward', 'AddReward'];

/**
 * Plenty single-farm contracts (entity `plenty`), recognized at their first call of `stake`/`unstake`/
 * `GetReward`/`AddReward` by a storage naming `stakeToken`, `rewardToken` and `totalSupply`, read with
 * the contract's own types when at hand, else with the shipped real ones (`types.ts`, no node needed).
 * The PNLP staking proxies have the entrypoints but none of these fields: they are not farms of their own.
 * Amounts are what moved (the farm's token transfers); totals and the owner's stake come from the
 * storage after the call.
 */
export const plentyFarmAdapter: FarmAdapter = {
  name: 'plenty',
  entities: ['plenty'],
  register(r: HandlerRegistry, sink: FarmSink): void {
    r.onOperationGroup([{ name: 'farm', entrypoint: ENTRYPOINTS }], async (m, ctx) => {
      const step = m.steps.farm!;
      const read = farmCall(step);
      if (!read) return;
      const s = read.storage;
      const key = { contract: step.contract, poolId: 0 };
      const owner = step.sender ?? m.signer ?? '';
      const entry = ownerEntry(s, step.bigMapDiffs, owner);
      const call = new PoolCall(m, step);
      const action = read.call && decode(call, read.call, s, owner, entry);
      const before = await sink.supply(ctx, key);
      const supply = supplyAfter(s, entry, action, before);
      if (!supply) return;
      if (!before)
        await sink.farm(
          ctx,
          {
            contract: step.contract,
            poolId: 0,
            entity: 'plenty',
            stake: stakeToken(s),
            reward: { standard: 'fa1.2', contract: s.rewardToken },
          },
          supply,
        );
      if (action) await sink.action(ctx, key, action, supply, { match: m, step });
    });
  },
};

/** FA2 stake tokens are flagged by `faTwoToken`; the storage carries no id, Plenty's FA2 LPs use 0. */
const stakeToken = (s: FarmStorage): FarmTokenRef =>
  s.faTwoToken
    ? { standard: 'fa2', contract: s.stakeToken, tokenId: 0n }
    : { standard: 'fa1.2', contract: s.stakeToken };

function decode(
  call: PoolCall,
  c: FarmCall,
  s: FarmStorage,
  owner: string,
  entry: OwnerEntry | undefined,
): FarmAction | undefined {
  // Token id 0: FA1.2 moves are read as id 0, and Plenty's FA2 stake tokens use id 0.
  const moved = (token: string, dir: 'in' | 'out') => call.tokens(token, 0n, dir);
  const parties = { sender: owner, receiver: owner };
  const state = { pending: entry?.pending, stakeAfter: entry?.stake };
  switch (c.entrypoint) {
    case 'stake':
      // The new lot is the counter before the call (the counter after, minus one).
      return {
        kind: 'deposit',
        ...parties,
        ...state,
        owner,
        volume: moved(s.stakeToken, 'in'),
        fee: 0n,
        reward: moved(s.rewardToken, 'out'),
        stakeId: entry?.counter !== undefined ? entry.counter - 1n : undefined,
      };
    case 'unstake': {
      // `unstake nat` or `unstake {Amount, MapKey}`: the amount leaves the stake, the farm keeps the fee.
      const volume = typeof c.args === 'bigint' ? c.args : c.args.Amount;
      const paid = moved(s.stakeToken, 'out');
      return {
        kind: 'withdraw',
        ...parties,
        ...state,
        owner,
        volume,
        fee: volume > paid ? volume - paid : 0n,
        reward: moved(s.rewardToken, 'out'),
        stakeId: typeof c.args === 'bigint' ? undefined : c.args.MapKey,
      };
    }
    case 'GetReward':
      return { kind: 'claim', ...parties, ...state, owner, reward: moved(s.rewardToken, 'out') };
    case 'AddReward':
      return { kind: 'update', ...parties, reward: moved(s.rewardToken, 'in') };
  }
  return undefined;
}

/**
 * The farm's totals after the call: `totalSupply` in raw stake units (divided by the contract's scale,
 * read from the caller's lots). When no lot shows the scale (an AddReward, a last unstake), the stake
 * is the last recorded one moved by this call; a farm first met that way waits for a call that shows it.
 */
function supplyAfter(
  s: FarmStorage,
  entry: OwnerEntry | undefined,
  action: FarmAction | undefined,
  before: FarmSupply | undefined,
): FarmSupply | undefined {
  const remaining = remainingRewards(s);
  if (entry?.scale !== undefined) return { totalStake: s.totalSupply / entry.scale, remainingRewards: remaining };
  if (s.totalSupply === 0n) return { totalStake: 0n, remainingRewards: remaining };
  if (!before) return undefined;
  const delta = action?.kind === 'deposit' ? action.volume : action?.kind === 'withdraw' ? -action.volume : 0n;
  return { totalStake: before.totalStake + delta, remainingRewards: remaining };
}
