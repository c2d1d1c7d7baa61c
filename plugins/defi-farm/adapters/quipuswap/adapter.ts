import type { HandlerRegistry, MatchedStep } from '../../../../framework';
import { PoolCall, type TokenMove } from '../../../../framework/defi';
import type { FarmAction, FarmAdapter, FarmSink, FarmSupply, FarmTokenRef } from '../../core/FarmAdapter';
import {
  type FarmRecord,
  farmsStorage,
  farmsWritten,
  type FarmsStorage,
  period,
  PRECISION,
  remainingRewards,
  rewardOf,
  stakeOf,
  type UserCall,
  userCall,
  type UserInfo,
  userWritten,
} from './storage';
import { QUIPU_QFARM, QUIPU_TFARM } from './types';
import { mintTokensType } from './types.gen';

const USER_CALLS = ['deposit', 'withdraw', 'harvest'];
const ADMIN_CALLS = ['add_new_farm', 'set_fees', 'set_reward_per_second'];

const entity = (s: FarmsStorage) => (s.kind === 'qfarm' ? 'quipu_qfarm' : 'quipu_tfarm');

/**
 * QuipuSwap farming (QFarm: QUIPU minted as reward, entity `quipu_qfarm`; TFarm: any funded reward
 * token, `quipu_tfarm`): multi-farm contracts whose farm id is the pool id. Recognized by their
 * storage (`storage.{farms, users_info, farms_count}`); amounts are what moved, totals and the
 * staker's accounting come from the farm and user entries the call wrote.
 */
export const quipuswapFarmAdapter: FarmAdapter = {
  name: 'quipuswap',
  entities: ['quipu_qfarm', 'quipu_tfarm'],
  register(r: HandlerRegistry, sink: FarmSink): void {
    for (const code of [QUIPU_QFARM, QUIPU_TFARM]) r.knownCode(code);
    r.onOperationGroup(
      [{ name: 'farm', destination: { entrypoints: USER_CALLS }, entrypoint: [...USER_CALLS, ...ADMIN_CALLS] }],
      async (m, ctx) => {
        const step = m.steps.farm!;
        const s = farmsStorage(step.storage);
        if (!s) return;
        const call = new PoolCall(m, step);
        const owner = step.sender ?? m.signer ?? '';
        const written = farmsWritten(s, step.bigMapDiffs);
        const user = userCall(s, step);
        // A staker's call whose argument fits neither family's type is no call of these farms.
        if (!user && USER_CALLS.includes(step.entrypoint ?? '')) return;
        for (const [fid, farm] of written) {
          const key = { contract: step.contract, poolId: Number(fid) };
          const supply = supplyOf(farm);
          const action = user
            ? userAction(call, s, user, farm, owner, userWritten(s, step.bigMapDiffs, fid, owner))
            : {
                kind: 'update' as const,
                sender: owner,
                receiver: owner,
                reward:
                  step.entrypoint === 'add_new_farm'
                    ? moved(call, rewardOf(farm), (mv) => mv.to === step.contract)
                    : 0n,
              };
          if (!(await sink.supply(ctx, key))) {
            const creator = step.entrypoint === 'add_new_farm' ? (m.signer ?? owner) : undefined;
            await sink.farm(
              ctx,
              { ...key, entity: entity(s), stake: stakeOf(farm), reward: rewardOf(farm), creator },
              supply,
            );
          }
          await sink.action(ctx, key, action, supply, { match: m, step });
          const kept =
            action.kind === 'withdraw' ? feeStaked(s, step.bigMapDiffs, fid, step.contract, action.fee) : undefined;
          if (kept) await sink.action(ctx, key, kept, supply, { match: m, step });
        }
      },
    );
  },
};

/** Totals after the call: `staked`, the schedule left, the period and the reward index (reward_per_share). */
function supplyOf(f: FarmRecord): FarmSupply {
  return {
    totalStake: f.staked,
    remainingRewards: remainingRewards(f),
    period: period(f),
    accrual: { index: f.reward_per_share, precision: PRECISION },
  };
}

const sameToken = (ref: FarmTokenRef, mv: TokenMove) =>
  ref.standard !== 'tez' && mv.token === ref.contract && mv.tokenId === (ref.standard === 'fa2' ? ref.tokenId : 0n);
const moved = (call: PoolCall, ref: FarmTokenRef, which: (mv: TokenMove) => boolean) =>
  call
    .tokenMoves()
    .filter((mv) => sameToken(ref, mv) && which(mv))
    .reduce((n, mv) => n + mv.amount, 0n);

/**
 * deposit (stake in + the rewards it claimed), withdraw (stake out less the early-withdrawal fee the
 * farm keeps, + claimed rewards) and harvest (claim). Rewards are what reached `rewards_receiver`:
 * TFarm's reward token transfers (the stake paid back excluded, for farms staking their reward token)
 * or QFarm's mint order to its proxy minter. Before the timelock ends rewards go to the admin: 0 then.
 */
function userAction(
  call: PoolCall,
  s: FarmsStorage,
  c: UserCall,
  farm: FarmRecord,
  owner: string,
  user: UserInfo | undefined,
): FarmAction {
  const farmAddress = call.step.contract;
  const stake = stakeOf(farm);
  const moves = call.tokenMoves();
  const stakeBack =
    c.entrypoint === 'withdraw'
      ? moves.find((mv) => sameToken(stake, mv) && mv.from === farmAddress && mv.to === c.args.receiver)
      : undefined;
  const rewardsReceiver = c.args.rewards_receiver;
  const reward =
    s.kind === 'qfarm'
      ? minted(call, rewardsReceiver)
      : moves
          .filter(
            (mv) =>
              mv !== stakeBack && sameToken(rewardOf(farm), mv) && mv.from === farmAddress && mv.to === rewardsReceiver,
          )
          .reduce((n, mv) => n + mv.amount, 0n);
  const state = user ? { pending: user.earned / PRECISION, rewardBase: user.earned - user.prev_earned } : {};
  switch (c.entrypoint) {
    case 'deposit':
      return {
        kind: 'deposit',
        sender: owner,
        receiver: rewardsReceiver,
        owner,
        volume: moved(call, stake, (mv) => mv.to === farmAddress),
        fee: 0n,
        reward,
        ...state,
      };
    case 'withdraw': {
      const volume = c.args.amt;
      const back = stakeBack?.amount ?? 0n;
      return {
        kind: 'withdraw',
        sender: owner,
        receiver: c.args.receiver,
        owner,
        volume,
        fee: volume > back ? volume - back : 0n,
        reward,
        ...state,
      };
    }
    case 'harvest':
      return { kind: 'claim', sender: owner, receiver: rewardsReceiver, owner, reward, ...state };
  }
}

/**
 * An early withdrawal's fee stays staked in the farm's name: `withdraw` adds it to `users_info[(fid,
 * Tezos.self_address)].staked` and takes only the rest off `farm.staked` (madfish-solutions/quipuswap-farming
 * `contracts/partial/farm/t_farm/t_farm_lambdas.ligo` at 9805ed66f6756b8513db5dbd14547938cf90b7d7). The farm's
 * own position gets it as a deposit, with its entry after the call, so the positions add up to `staked`.
 */
function feeStaked(
  s: FarmsStorage,
  diffs: MatchedStep['bigMapDiffs'],
  fid: bigint,
  farm: string,
  fee: bigint,
): FarmAction | undefined {
  const self = fee > 0n ? userWritten(s, diffs, fid, farm) : undefined;
  if (!self) return undefined;
  const rewardBase = self.earned - self.prev_earned;
  const state = { pending: self.earned / PRECISION, rewardBase, stakeAfter: self.staked };
  return { kind: 'deposit', sender: farm, receiver: farm, owner: farm, volume: fee, fee: 0n, reward: 0n, ...state };
}

/** QUIPU the farm had its proxy minter mint to `to` in this call. */
function minted(call: PoolCall, to: string): bigint {
  let n = 0n;
  for (const o of call.emitted) {
    if (o.entrypoint !== 'mint_tokens') continue;
    for (const e of mintTokensType.decode(o.parameters) ?? []) if (e.receiver === to) n += e.amount;
  }
  return n;
}
