import {
  type BlockContext,
  CallContext,
  LazyStorageDiff,
  ManagerGroupBuilder,
  type ManagerContent,
  type Micheline,
  pickSource,
  TEZ,
} from '../../../../../framework/sandbox/extension';
import type { Farm, FarmEntrypoint } from './Farm';

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
  const entrypoint: FarmEntrypoint = !useStaker
    ? 'stake'
    : lots.length > 0 && ctx.prng.chance(0.5)
      ? 'unstake'
      : 'GetReward';
  const [key, lot] = entrypoint === 'unstake' ? lots[ctx.prng.int(lots.length)] : ['0', { amount: 0n }];
  const amount =
    entrypoint === 'stake'
      ? 1n + ctx.prng.bigRange(0n, farm.staked.balanceOf(user.address) / 2n)
      : entrypoint === 'unstake'
        ? ctx.prng.chance(0.6)
          ? lot.amount
          : 1n + ctx.prng.bigRange(0n, lot.amount - 1n)
        : 0n;
  return new ManagerGroupBuilder(ctx).build(user.address, [
    farmContent(ctx, farm, user.address, entrypoint, amount, key),
  ]);
}

/** One call of `who` to the farm; its parameter is the one the farm decodes when the call applies. */
export function farmContent(
  ctx: BlockContext,
  farm: Farm,
  who: string,
  entrypoint: FarmEntrypoint,
  amount: bigint,
  key = '0',
): ManagerContent {
  const parameters: { entrypoint: string; value: Micheline } = { entrypoint, value: { prim: 'Unit' } };
  return {
    kind: 'transaction',
    fields: { amount: '0', destination: farm.address, parameters },
    gasLimit: 6000,
    storageLimit: 350,
    apply: () => {
      const call = new CallContext(ctx, who);
      const diff = new LazyStorageDiff(ctx.book);
      const { value, grown } = farm.apply(call, diff, who, entrypoint, amount, BigInt(key));
      parameters.value = value;
      return { result: call.contractResult(farm, diff, 6000, grown), internal: call.internal };
    },
  };
}
