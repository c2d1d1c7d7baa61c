import { BalanceUpdates } from '../BalanceUpdates';
import type { BlockContext } from '../BlockContext';
import { COST_PER_BYTE } from '../contracts/ContractModel';
import { newKeyPair } from '../Keys';
import { ContentFailure, ManagerGroupBuilder, type ManagerContent } from './ManagerGroup';
import { logAmount, pickImplicit, pickSource, TEZ } from './Sources';

/** Bytes burnt when a transaction allocates a new implicit account (`origination_size`). */
const ALLOCATION_BYTES = 257n;

/**
 * Plain tez transfers between implicit accounts; some allocate a fresh account (with the allocation
 * burn), some are batches, some fail with `balance_too_low`.
 */
export function buildTransfer(ctx: BlockContext): Record<string, unknown> | undefined {
  const source = pickSource(ctx, (a) => a.balance > 3n * TEZ);
  if (!source) return undefined;
  const count = ctx.prng.chance(0.1) ? ctx.prng.range(2, 4) : 1;
  const contents: ManagerContent[] = [];
  for (let i = 0; i < count; i++) {
    const fresh = ctx.book.size < ctx.profile.maxAccounts && ctx.prng.chance(0.12);
    const destination = fresh
      ? newKeyPair(ctx.prng, ctx.prng.pick(['tz1', 'tz1', 'tz2', 'tz3', 'tz4'] as const))
      : undefined;
    const to = destination?.address ?? pickImplicit(ctx, source.address);
    if (!to) return undefined;
    const amount = logAmount(ctx, 10_000n, source.balance / 20n);
    contents.push(tezTransfer(ctx, source.address, to, amount, destination));
  }
  return new ManagerGroupBuilder(ctx).build(source.address, contents);
}

/** One tez transfer content; `fresh` is the key of an account the transfer creates. */
export function tezTransfer(
  ctx: BlockContext,
  from: string,
  to: string,
  amount: bigint,
  fresh?: ReturnType<typeof newKeyPair>,
): ManagerContent {
  const { book } = ctx;
  return {
    kind: 'transaction',
    fields: { amount: String(amount), destination: to },
    gasLimit: 169,
    storageLimit: fresh ? 277 : 0,
    apply: () => {
      const balance = book.get(from).balance;
      const burn = fresh && !book.has(to) ? ALLOCATION_BYTES * COST_PER_BYTE : 0n;
      if (balance < amount + burn) throw new ContentFailure(balanceTooLow(ctx, from, balance, amount));
      if (fresh && !book.has(to)) book.createImplicit(fresh);
      const updates = new BalanceUpdates(book).transfer(
        (b, c) => b.contract(from, c),
        (b, c) => b.contract(to, c),
        amount,
      );
      if (burn > 0n)
        updates.transfer(
          (b, c) => b.contract(from, c),
          (b, c) => b.burned('storage fees', c),
          burn,
        );
      const result: Record<string, unknown> = { balance_updates: updates.items, consumed_milligas: '168673' };
      if (burn > 0n) result.allocated_destination_contract = true;
      return { result };
    },
    failure: () => balanceTooLow(ctx, from, book.get(from).balance, amount + book.get(from).balance),
  };
}

export function balanceTooLow(ctx: BlockContext, contract: string, balance: bigint, amount: bigint): unknown[] {
  const p = ctx.identity.errorPrefix;
  return [
    { kind: 'temporary', id: `${p}.tez.subtraction_underflow`, amounts: [String(balance), String(amount)] },
    {
      kind: 'temporary',
      id: `${p}.contract.balance_too_low`,
      contract,
      balance: String(balance),
      amount: String(amount),
    },
  ];
}
