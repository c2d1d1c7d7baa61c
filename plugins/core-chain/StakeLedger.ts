import type { BalanceUpdate } from '../../framework';
import type { AccountData } from './AccountBook';
import { transfers } from './BalanceMoves';

/** The staking columns of an account row. */
export type StakeFields = Pick<
  AccountData,
  | 'staked_balance'
  | 'unstaked_balance'
  | 'lost_stake'
  | 'frozen_rewards'
  | 'stake_shares'
  | 'staker_pool'
  | 'stake_shares_total'
>;

/**
 * Staking balances from the receipts, in their order (why: the node writes each transfer as debits
 * then credits, so a slash is a stake debit whose credit is a burn or someone else's account):
 * - own stake: Tenderbake `deposits` without a cycle, of the baker itself (`baker_own_stake`,
 *   `baker_edge`, Oxford's `baker`, or no staker before Oxford);
 * - the external stakers' pool of a baker: `deposits` of `{delegate}` or `{contract, delegate}`,
 *   shared by pseudotokens (`staking` numerator per staker, denominator per baker);
 * - unstake requests: `unstaked_deposits` of `{contract, delegate}`, until finalized or slashed;
 * - Emmy frozen rewards: `freezer` `rewards` and their `legacy_rewards` release.
 */
export class StakeLedger {
  constructor(private readonly account: (address: string | undefined) => AccountData | undefined) {}

  apply(updates: readonly BalanceUpdate[]): void {
    for (const group of transfers(updates)) {
      const credits = group.filter((u) => u.change > 0n);
      for (const u of group) this.applyOne(u, credits);
    }
    for (const u of updates) this.applyShares(u);
  }

  private applyOne(u: BalanceUpdate, credits: readonly BalanceUpdate[]): void {
    if (u.kind !== 'freezer') return;
    if (u.category === 'rewards' || u.category === 'legacy_rewards') {
      this.add(u.account, 'frozen_rewards', u.change);
      return;
    }
    const staker = u.staker;
    if (u.category === 'unstaked_deposits') {
      const owner = staker?.contract;
      this.add(owner, 'unstaked_balance', u.change);
      if (u.change < 0n && slashed(credits, owner)) this.add(owner, 'lost_stake', -u.change);
      return;
    }
    if (u.category !== 'deposits' || u.cycle !== undefined) return;
    const own =
      staker === undefined
        ? u.account
        : (staker.bakerOwnStake ??
          staker.bakerEdge ??
          staker.baker ??
          (staker.contract === staker.delegate ? staker.contract : undefined));
    if (own !== undefined) {
      this.add(own, 'staked_balance', u.change);
      if (u.change < 0n && slashed(credits, own)) this.add(own, 'lost_stake', -u.change);
    } else {
      this.add(staker?.delegate, 'staker_pool', u.change);
    }
  }

  private applyShares(u: BalanceUpdate): void {
    if (u.kind !== 'staking') return;
    if (u.category === 'delegator_numerator') this.add(u.delegator, 'stake_shares', u.change);
    else if (u.category === 'delegate_denominator') this.add(u.delegate, 'stake_shares_total', u.change);
  }

  private add(address: string | undefined, field: keyof StakeFields, change: bigint): void {
    const a = this.account(address);
    if (a) a[field] += change;
  }
}

/** A stake debit is lost when its transfer burns it or pays it to another account (the accuser). */
function slashed(credits: readonly BalanceUpdate[], owner: string | undefined): boolean {
  return credits.some((c) => c.kind === 'burned' || (c.kind === 'contract' && c.account !== owner));
}
