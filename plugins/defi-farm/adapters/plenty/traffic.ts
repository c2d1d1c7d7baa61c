import {
  type Applied,
  type BlockContext,
  CallContext,
  LazyStorageDiff,
  ManagerGroupBuilder,
  type ManagerContent,
  type Micheline,
  pickSource,
  TEZ,
} from '../../../../framework/sandbox/extension';
import type { Farm } from './Farm';

/** Farm traffic: `stake` LP tokens, `unstake` them or harvest (`GetReward`) on a Plenty farm. */
export function farmCall(ctx: BlockContext, farm: Farm): Record<string, unknown> | undefined {
  const staker = pickSource(ctx, (a) => a.balance > TEZ && farm.positions.get(a.address) > 0n, false);
  const holder = pickSource(ctx, (a) => a.balance > TEZ && farm.staked.balanceOf(a.address) > 0n, false);
  const useStaker = staker && (!holder || ctx.prng.chance(0.5));
  const user = useStaker ? staker : holder;
  if (!user) return undefined;
  const entrypoint = useStaker ? (ctx.prng.chance(0.5) ? 'unstake' : 'GetReward') : 'stake';
  // A third of the unstakes leave the farm altogether, so positions close as well as open.
  const staked = farm.positions.get(user.address);
  const unstake = ctx.prng.chance(1 / 3) ? staked : 1n + ctx.prng.bigRange(0n, staked - 1n);
  const amount = entrypoint === 'stake' ? 1n + ctx.prng.bigRange(0n, farm.staked.balanceOf(user.address) / 2n) : entrypoint === 'unstake' ? unstake : 0n;
  const value = entrypoint === 'GetReward' ? { prim: 'Unit' } : { int: String(amount) };
  const content = contractContent(ctx, user.address, farm.address, 6000, { entrypoint, value, amount: 0n }, (call) => {
    const diff = new LazyStorageDiff(ctx.book);
    const { grown } = farm.apply(call, diff, user.address, entrypoint, amount);
    return { result: call.contractResult(farm, diff, 6000, grown), internal: call.internal };
  });
  return new ManagerGroupBuilder(ctx).build(user.address, [content]);
}


/** A content calling `destination` whose effects `run` computes once applied. */
function contractContent(ctx: BlockContext, source: string, destination: string, gasLimit: number, plan: { entrypoint: string; value: Micheline; amount: bigint }, run: (call: CallContext) => Applied): ManagerContent {
  return {
    kind: 'transaction',
    fields: { amount: String(plan.amount), destination, parameters: { entrypoint: plan.entrypoint, value: plan.value } },
    gasLimit,
    storageLimit: 350,
    apply: () => run(new CallContext(ctx, source)),
  };
}

