import type { AccountBook } from './AccountBook';
import { BalanceUpdates } from './BalanceUpdates';
import type { ChainCalendar } from './ChainCalendar';

/**
 * Why: from Oxford on a denunciation's receipt moves no tez; the node slashes the offender at a cycle's
 * end, in the block's balance updates, each entry tagged `origin: delayed_operation` and the
 * denunciation's hash. This keeps the pending denunciations and writes those entries in the real
 * receipts' shape: per denunciation, the offender's frozen deposits (own, then shared) burned as
 * `punishments`, then the accuser's reward out of the same deposits.
 */

interface PendingDenunciation {
  hash: string;
  offender: string;
  accuser: string;
  misbehaviourLevel: number;
}

const PENDING = 'pendingDenunciations';
/** `percentage_of_frozen_deposits_slashed_per_double_baking` (7 %), in hundredths of a percent. */
const SLASHED_PER_10000 = 700n;
/** Share of the slashed amount paid to the accuser (the rest is burned). */
const REWARD_DIVISOR = 7n;

export function recordDenunciation(book: AccountBook, pending: PendingDenunciation): void {
  book.setVar(PENDING, [...book.getVar<PendingDenunciation[]>(PENDING, []), pending]);
}

/**
 * The delayed slashings due at the end of `cycle`: the denunciations of misbehaviours of earlier
 * cycles (Paris+; those of the ending cycle wait one more cycle), in the order they were included.
 */
export function applyDueSlashings(book: AccountBook, calendar: ChainCalendar, cycle: number): BalanceUpdates[] {
  const pending = book.getVar<PendingDenunciation[]>(PENDING, []);
  const due = pending.filter((d) => calendar.cycleOf(d.misbehaviourLevel) < cycle);
  if (due.length === 0) return [];
  book.setVar(
    PENDING,
    pending.filter((d) => !due.includes(d)),
  );
  return due.map((d) => slash(book, d));
}

function slash(book: AccountBook, d: PendingDenunciation): BalanceUpdates {
  const updates = new BalanceUpdates(book, 'delayed_operation', { delayed_operation_hash: d.hash });
  const baker = book.baker(d.offender);
  if (!baker) return updates;
  const own = (baker.ownStaked * SLASHED_PER_10000) / 10000n;
  const shared = (baker.sharedStaked * SLASHED_PER_10000) / 10000n;
  // The accuser's reward comes out of the slashed own deposits.
  const reward = own / REWARD_DIVISOR;
  const burnOwn = own - reward;
  const ownStake = { baker_own_stake: d.offender };
  const burn = (u: BalanceUpdates, c: bigint) => u.burned('punishments', c);
  if (burnOwn > 0n) updates.transfer((u, c) => u.deposits(ownStake, c), burn, burnOwn);
  if (shared > 0n) updates.transfer((u, c) => u.deposits({ delegate: d.offender }, c), burn, shared);
  if (reward > 0n)
    updates.transfer(
      (u, c) => u.deposits(ownStake, c),
      (u, c) => u.contract(d.accuser, c),
      reward,
    );
  return updates;
}
