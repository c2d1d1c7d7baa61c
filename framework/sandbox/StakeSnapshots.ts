import type { Baker } from './AccountBook';
import { countedStake, delegateStakes, STAKE_CONSTANTS, type DelegateStake } from './DelegateStake';
import type { Journal } from './Journal';
import type { LedgerView } from './LedgerView';

export interface StakeShare {
  /** Index of the baker in the book's baker list. */
  readonly baker: number;
  readonly address: string;
  readonly consensusKey: string;
  readonly frozen: bigint;
  readonly delegated: bigint;
  readonly power: bigint;
}

/** The stake distribution selected for one cycle: the bakers with baking power, in baker order. */
export interface StakeDistribution {
  readonly cycle: number;
  readonly shares: readonly StakeShare[];
  readonly total: bigint;
  /** Baking power by baker index (0 for bakers without rights), for weighted draws. */
  readonly weights: readonly number[];
}

/**
 * Per-cycle stake distributions, selected the way the protocol does it: at the end of cycle c, the
 * stake of every baker becomes the distribution of cycle c + consensus_rights_delay + 1; the first
 * cycles (0 … consensus_rights_delay) use the stake right after the bootstrap, as Octez computes them
 * from the bootstrap accounts at activation. Selections are journaled, so a reorg that replaces a
 * cycle's last block re-selects on the new branch. Every selected distribution is kept (a few bakers
 * per cycle), so rights of any past cycle can be answered.
 */
export class StakeSnapshots {
  private readonly selected = new Map<number, StakeDistribution>();

  constructor(private readonly journal: Journal) {}

  /** At activation: the distributions of cycles 0 … consensus_rights_delay. */
  selectInitial(view: LedgerView): void {
    for (let cycle = 0; cycle <= STAKE_CONSTANTS.consensusRightsDelay; cycle++) this.select(cycle, view);
  }

  /** At the end of `cycle`: the distribution of the cycle whose rights are now fixed. */
  selectAtCycleEnd(cycle: number, view: LedgerView): void {
    this.select(cycle + STAKE_CONSTANTS.consensusRightsDelay + 1, view);
  }

  forCycle(cycle: number): StakeDistribution | undefined {
    return this.selected.get(cycle);
  }

  /** The last cycle whose distribution is known during `cycle` (later rights are not drawn yet). */
  static lastKnownCycle(cycle: number): number {
    return cycle + STAKE_CONSTANTS.consensusRightsDelay;
  }

  private select(cycle: number, view: LedgerView): void {
    const stakes = delegateStakes(view);
    const bakers: Baker[] = view.bakers();
    const shares: StakeShare[] = [];
    for (const b of bakers) {
      const counted = countedStake(stakes.get(b.address) as DelegateStake);
      if (counted.power > 0n)
        shares.push({ baker: b.index, address: b.address, consensusKey: b.consensusKey, ...counted });
    }
    const total = shares.reduce((s, x) => s + x.power, 0n);
    if (total === 0n) throw new Error(`sandbox: no baker has baking power for cycle ${cycle}`);
    const weights = bakers.map(() => 0);
    for (const s of shares) weights[s.baker] = Number(s.power);
    // A cycle is selected once per branch: rolling its selecting block back forgets it.
    this.selected.set(cycle, { cycle, shares, total, weights });
    this.journal.record(() => this.selected.delete(cycle));
  }
}
