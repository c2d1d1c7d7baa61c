/** Figures a plugin adds to `/explorer/cycle/{id}` (keys of the original's cycle object). */
export interface CycleFiguresSource {
  /** The figures of a cycle; `complete` when a later cycle has begun. */
  figures(cycle: number, complete: boolean): Promise<Record<string, unknown>>;
}

/**
 * The cycle object's extension point. core-chain builds the cycle from its blocks; what needs rights
 * and stake snapshots (attesters at work, missed attestations, the snapshot behind the cycle) comes
 * from the plugins that keep them, which add a source here at register time. Keys no source sets
 * stay as core-chain wrote them (null when unknown).
 */
export class CycleFigures {
  private readonly sources: CycleFiguresSource[] = [];

  add(source: CycleFiguresSource): void {
    this.sources.push(source);
  }

  async of(cycle: number, complete: boolean): Promise<Record<string, unknown>> {
    const parts = await Promise.all(this.sources.map((s) => s.figures(cycle, complete)));
    return Object.assign({}, ...parts);
  }
}
