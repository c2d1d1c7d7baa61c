import type { BlockContext } from '../BlockContext';
import { consumedMilligas, ManagerGroupBuilder } from './ManagerGroup';
import { pickSource, TEZ } from './Sources';

/**
 * `delegation`: an account with nothing staked changes or withdraws its delegate. (Accounts with stake
 * are left alone: their redelegation would also unstake, which the sandbox does not model.)
 */
export function buildDelegation(ctx: BlockContext): Record<string, unknown> | undefined {
  const { book, prng } = ctx;
  const source = pickSource(
    ctx,
    (a) => a.balance > TEZ && a.stakingNumerator === 0n && !book.baker(a.address) && a.unstakeRequests.length === 0,
  );
  if (!source) return undefined;
  const withdraw = source.delegate !== undefined && prng.chance(0.1);
  const candidates = book.bakers.filter((b) => b.address !== source.delegate);
  const delegate = withdraw ? undefined : prng.pick(candidates).address;
  return new ManagerGroupBuilder(ctx).build(source.address, [
    {
      kind: 'delegation',
      fields: delegate ? { delegate } : {},
      gasLimit: 1000,
      storageLimit: 0,
      apply: () => {
        book.set(source.address, 'delegate', delegate);
        return { result: { consumed_milligas: consumedMilligas(ctx, 1000) } };
      },
    },
  ]);
}
