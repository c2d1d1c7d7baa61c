import type { AccountBook } from './AccountBook';

export type Staker =
  { contract: string; delegate: string } | { delegate: string } | { baker_own_stake: string } | { baker_edge: string };

export type BalanceOrigin = 'block' | 'migration' | 'subsidy' | 'delayed_operation';

export interface BalanceUpdate {
  kind: string;
  change: string;
  origin: BalanceOrigin;
  [field: string]: unknown;
}

/**
 * Builds one `balance_updates` list and applies every entry to the ledger at the same time, so what the
 * chain reports and what it stores can never drift apart. Debits are written before their credit, as the
 * node does; every list built through `transfer` sums to zero.
 */
export class BalanceUpdates {
  readonly items: BalanceUpdate[] = [];

  /** `tags` follow the origin in every entry (a delayed slashing's `delayed_operation_hash`). */
  constructor(
    private readonly book: AccountBook,
    private readonly origin: BalanceOrigin = 'block',
    private readonly tags: Record<string, unknown> = {},
  ) {}

  contract(address: string, change: bigint): this {
    this.book.adjustBalance(address, change);
    return this.push({ kind: 'contract', contract: address }, change);
  }

  accumulator(change: bigint): this {
    return this.push({ kind: 'accumulator', category: 'block fees' }, change);
  }

  minted(category: string, change: bigint): this {
    return this.push({ kind: 'minted', category }, change);
  }

  burned(category: string, change: bigint, extra: Record<string, unknown> = {}): this {
    return this.push({ kind: 'burned', category, ...extra }, change);
  }

  deposits(staker: Staker, change: bigint): this {
    this.applyDeposit(staker, change);
    return this.push({ kind: 'freezer', category: 'deposits', staker }, change);
  }

  unstaked(staker: { contract: string; delegate: string }, cycle: number, change: bigint): this {
    const account = this.book.get(staker.contract);
    const requests = account.unstakeRequests.map((r) => ({ ...r }));
    const hit = requests.find((r) => r.cycle === cycle && r.delegate === staker.delegate);
    if (hit) hit.amount += change;
    else requests.push({ cycle, delegate: staker.delegate, amount: change });
    if (requests.some((r) => r.amount < 0n))
      throw new Error(`sandbox: unstaked deposits of ${staker.contract} would become negative`);
    this.book.set(
      staker.contract,
      'unstakeRequests',
      requests.filter((r) => r.amount > 0n),
    );
    return this.push({ kind: 'freezer', category: 'unstaked_deposits', staker, cycle }, change);
  }

  numerator(delegator: string, change: bigint): this {
    const a = this.book.get(delegator);
    this.book.set(delegator, 'stakingNumerator', a.stakingNumerator + change);
    return this.push({ kind: 'staking', category: 'delegator_numerator', delegator }, change);
  }

  denominator(delegate: string, change: bigint): this {
    const b = this.requireBaker(delegate);
    this.book.setBaker(b, 'stakingDenominator', b.stakingDenominator + change);
    return this.push({ kind: 'staking', category: 'delegate_denominator', delegate }, change);
  }

  /** Move `amount` from one entry to another: the debit line, then the credit line. */
  transfer(
    debit: (b: this, change: bigint) => unknown,
    credit: (b: this, change: bigint) => unknown,
    amount: bigint,
  ): this {
    debit(this, -amount);
    credit(this, amount);
    return this;
  }

  /** Sum of all changes; zero for every list the node emits. */
  get total(): bigint {
    return this.items.reduce((s, u) => s + BigInt(u.change), 0n);
  }

  private applyDeposit(staker: Staker, change: bigint): void {
    if ('baker_own_stake' in staker) {
      const b = this.requireBaker(staker.baker_own_stake);
      this.book.setBaker(b, 'ownStaked', b.ownStaked + change);
    } else if ('baker_edge' in staker) {
      const b = this.requireBaker(staker.baker_edge);
      this.book.setBaker(b, 'edgeStaked', b.edgeStaked + change);
    } else {
      const b = this.requireBaker(staker.delegate);
      this.book.setBaker(b, 'sharedStaked', b.sharedStaked + change);
    }
  }

  private requireBaker(address: string) {
    const b = this.book.baker(address);
    if (!b) throw new Error(`sandbox: ${address} is not a baker`);
    return b;
  }

  private push(fields: Record<string, unknown>, change: bigint): this {
    this.items.push({ ...fields, change: String(change), origin: this.origin, ...this.tags } as BalanceUpdate);
    return this;
  }
}
