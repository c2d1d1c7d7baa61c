/**
 * `tzidx check <family>`: invariants a plugin's indexed data must hold, read back from the database after
 * indexing (no node needed). A plugin contributes checks (PluginContribution.checks); each yields the
 * rows that break it, with the block and operation where the row names them, so a person can look.
 */
export interface Violation {
  /** The check's name, e.g. `dex.lp_supply`. */
  readonly check: string;
  /** What breaks it: a pool, a position, an event. */
  readonly subject: string;
  readonly height?: number | null;
  /** The operation group hash, where the row has one. */
  readonly op?: string | null;
  readonly detail: string;
  /** Set on what a check could not hold to the chain (no reading of its data): not a violation, never a pass. */
  readonly notChecked?: boolean;
}

export interface CheckScope {
  /** Only this pool (the plugin's pool key, e.g. `KT1…_0`). */
  readonly pool?: string;
}

export interface ReconciliationCheck {
  /** `family.name`; the family is what `tzidx check <family>` selects (e.g. `defi`). */
  readonly family: string;
  readonly name: string;
  /** What it holds, in a line (printed by `tzidx check`). */
  readonly description: string;
  run(scope: CheckScope): Promise<readonly Violation[]>;
}
