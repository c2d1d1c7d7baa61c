import type { Account } from '../AccountBook';
import { BalanceUpdates } from '../BalanceUpdates';
import type { BlockContext } from '../BlockContext';
import { int, pair, unit } from '../Michelson';
import { consumedMilligas, ContentFailure, ManagerGroupBuilder, type ManagerContent } from './ManagerGroup';
import { logAmount, pickSource, TEZ } from './Sources';

/** Cycles after which an unstake request can be finalized (`unstake_finalization_delay`). */
export const UNSTAKE_FINALIZATION_DELAY = 4;

/**
 * Staking pseudo-operations (transactions to self with the `stake`, `unstake`, `finalize_unstake`
 * entrypoints) by delegators, and `set_delegate_parameters` by bakers, with the Paris+ balance updates:
 * pseudotokens (`staking` numerator/denominator) and shared `{contract, delegate}` deposits.
 */
export function buildStakingOperation(ctx: BlockContext): Record<string, unknown> | undefined {
  const { prng } = ctx;
  const r = prng.float();
  if (r < 0.1) return setDelegateParameters(ctx);
  const finalizable = pickSource(
    ctx,
    (a) => a.balance > TEZ / 10n && a.unstakeRequests.some((q) => q.cycle + UNSTAKE_FINALIZATION_DELAY <= ctx.cycle),
  );
  if (finalizable && r < 0.35)
    return selfCall(ctx, finalizable, 'finalize_unstake', 0n, () => finalize(ctx, finalizable));
  if (r < 0.55) {
    const staker = pickSource(ctx, (a) => a.stakingNumerator > 0n && a.balance > TEZ / 10n);
    if (staker) {
      const value = stakedValue(ctx, staker);
      const amount = value <= 2n ? value : logAmount(ctx, 1n, value);
      return selfCall(ctx, staker, 'unstake', amount, () => unstake(ctx, staker, amount));
    }
  }
  const delegator = pickSource(
    ctx,
    (a) => a.delegate !== undefined && !ctx.book.baker(a.address) && a.balance > 200n * TEZ,
  );
  if (!delegator) return undefined;
  const amount = logAmount(ctx, 100n * TEZ, delegator.balance / 4n);
  return selfCall(ctx, delegator, 'stake', amount, () => stake(ctx, delegator, amount));
}

function selfCall(
  ctx: BlockContext,
  source: Account,
  entrypoint: string,
  amount: bigint,
  apply: () => BalanceUpdates,
): Record<string, unknown> {
  const content: ManagerContent = {
    kind: 'transaction',
    fields: { amount: String(amount), destination: source.address, parameters: { entrypoint, value: unit } },
    gasLimit: 3800,
    storageLimit: 0,
    apply: () => ({ result: { balance_updates: apply().items, consumed_milligas: consumedMilligas(ctx, 3800) } }),
  };
  return new ManagerGroupBuilder(ctx).build(source.address, [content]);
}

function delegateOf(ctx: BlockContext, account: Account) {
  const baker = account.delegate ? ctx.book.baker(account.delegate) : undefined;
  if (!baker)
    throw new ContentFailure([
      { kind: 'temporary', id: `${ctx.identity.errorPrefix}.operation.stake_modification_with_no_delegate_set` },
    ]);
  return baker;
}

function stakedValue(ctx: BlockContext, account: Account): bigint {
  const baker = delegateOf(ctx, account);
  return baker.stakingDenominator === 0n
    ? 0n
    : (account.stakingNumerator * baker.sharedStaked) / baker.stakingDenominator;
}

function stake(ctx: BlockContext, account: Account, amount: bigint): BalanceUpdates {
  const baker = delegateOf(ctx, account);
  const tokens =
    baker.stakingDenominator === 0n || baker.sharedStaked === 0n
      ? amount
      : (amount * baker.stakingDenominator) / baker.sharedStaked;
  const staker = { contract: account.address, delegate: baker.address };
  return new BalanceUpdates(ctx.book)
    .numerator(account.address, tokens)
    .denominator(baker.address, tokens)
    .transfer(
      (b, c) => b.contract(account.address, c),
      (b, c) => b.deposits(staker, c),
      amount,
    );
}

function unstake(ctx: BlockContext, account: Account, requested: bigint): BalanceUpdates {
  const baker = delegateOf(ctx, account);
  let tokens = (requested * baker.stakingDenominator) / baker.sharedStaked;
  if (tokens > account.stakingNumerator) tokens = account.stakingNumerator;
  const value = (tokens * baker.sharedStaked) / baker.stakingDenominator;
  if (value === 0n)
    throw new ContentFailure([
      {
        kind: 'temporary',
        id: `${ctx.identity.errorPrefix}.operation.invalid_nonzero_transaction_amount`,
        amount: String(requested),
      },
    ]);
  const staker = { contract: account.address, delegate: baker.address };
  return new BalanceUpdates(ctx.book)
    .denominator(baker.address, -tokens)
    .numerator(account.address, -tokens)
    .transfer(
      (b, c) => b.deposits(staker, c),
      (b, c) => b.unstaked(staker, ctx.cycle, c),
      value,
    );
}

function finalize(ctx: BlockContext, account: Account): BalanceUpdates {
  const updates = new BalanceUpdates(ctx.book);
  for (const r of account.unstakeRequests.filter((q) => q.cycle + UNSTAKE_FINALIZATION_DELAY <= ctx.cycle)) {
    updates.transfer(
      (b, c) => b.unstaked({ contract: account.address, delegate: r.delegate }, r.cycle, c),
      (b, c) => b.contract(account.address, c),
      r.amount,
    );
  }
  return updates;
}

function setDelegateParameters(ctx: BlockContext): Record<string, unknown> | undefined {
  const baker = pickSource(ctx, (a) => ctx.book.baker(a.address) !== undefined && a.balance > TEZ);
  if (!baker) return undefined;
  const limit = ctx.prng.pick([0, 1_000_000, 5_000_000, 9_000_000]);
  const edge = ctx.prng.pick([50_000_000, 100_000_000, 150_000_000]);
  return new ManagerGroupBuilder(ctx).build(baker.address, [
    {
      kind: 'transaction',
      fields: {
        amount: '0',
        destination: baker.address,
        parameters: { entrypoint: 'set_delegate_parameters', value: pair(int(limit), int(edge), unit) },
      },
      gasLimit: 1200,
      storageLimit: 0,
      apply: () => ({ result: { consumed_milligas: consumedMilligas(ctx, 1200) } }),
    },
  ]);
}
