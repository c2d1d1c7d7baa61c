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
} from '../../../../../framework/sandbox/extension';
import type { Farm } from './Farm';

/**
 * Farm traffic: `stake` LP tokens, `unstake` from one lot (mostly all of it) or claim (`GetReward`), even odds,
 * on a Plenty farm; stakers whose stake is gone claim what they still have earned. The LP holders are few (the
 * DEX's early providers and later depositors), so both picks scan the book rather than give up.
 */
export function farmCall(ctx: BlockContext, farm: Farm): Record<string, unknown> | undefined {
  const staker = pickSource(
    ctx,
    (a) => a.balance > TEZ && (farm.stakeOf(a.address) > 0n || (farm.entry(a.address)?.rewards ?? 0n) > 0n),
  );
  const holder = pickSource(ctx, (a) => a.balance > TEZ && farm.staked.balanceOf(a.address) > 0n);
  const useStaker = staker && (!holder || ctx.prng.chance(0.65));
  const user = useStaker ? staker : holder;
  if (!user) return undefined;
  const lots = Object.entries(farm.entry(user.address)?.lots ?? {});
  const entrypoint = !useStaker ? 'stake' : lots.length > 0 && ctx.prng.chance(0.5) ? 'unstake' : 'GetReward';
  const [key, lot] = entrypoint === 'unstake' ? lots[ctx.prng.int(lots.length)] : ['0', { amount: 0n }];
  const amount =
    entrypoint === 'stake'
      ? 1n + ctx.prng.bigRange(0n, farm.staked.balanceOf(user.address) / 2n)
      : entrypoint === 'unstake'
        ? ctx.prng.chance(0.6)
          ? lot.amount
          : 1n + ctx.prng.bigRange(0n, lot.amount - 1n)
        : 0n;
  const value =
    entrypoint === 'GetReward'
      ? { prim: 'Unit' }
      : entrypoint === 'stake'
        ? { int: String(amount) }
        : { prim: 'Pair', args: [{ int: String(amount) }, { int: key }] };
  const content = contractContent(ctx, user.address, farm.address, 6000, { entrypoint, value, amount: 0n }, (call) => {
    const diff = new LazyStorageDiff(ctx.book);
    const { grown } = farm.apply(call, diff, user.address, entrypoint, amount, BigInt(key));
    return { result: call.contractResult(farm, diff, 6000, grown), internal: call.internal };
  });
  return new ManagerGroupBuilder(ctx).build(user.address, [content]);
}

/** A content calling `destination` whose effects `run` computes once applied. */
function contractContent(
  ctx: BlockContext,
  source: string,
  destination: string,
  gasLimit: number,
  plan: { entrypoint: string; value: Micheline; amount: bigint },
  run: (call: CallContext) => Applied,
): ManagerContent {
  return {
    kind: 'transaction',
    fields: {
      amount: String(plan.amount),
      destination,
      parameters: { entrypoint: plan.entrypoint, value: plan.value },
    },
    gasLimit,
    storageLimit: 350,
    apply: () => run(new CallContext(ctx, source)),
  };
}
