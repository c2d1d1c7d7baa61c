/**
 * Undo log of state mutations, one entry list per block. Rolling back the entries of the last N blocks
 * restores the state at the fork point, which is how the sandbox switches branches (reorgs) without
 * regenerating the chain from genesis.
 */
export class Journal {
  private current: (() => void)[] | undefined;
  private readonly blocks: (() => void)[][] = [];

  constructor(private readonly keepBlocks: number) {}

  begin(): void {
    if (this.current) throw new Error('Journal: a block is already open');
    this.current = [];
  }

  /** Remember how to undo a mutation; outside a block (genesis set-up) there is nothing to undo to. */
  record(undo: () => void): void {
    this.current?.push(undo);
  }

  commit(): void {
    if (!this.current) throw new Error('Journal: no open block');
    this.blocks.push(this.current);
    this.current = undefined;
    // Older entries can never be rolled back (reorgs are bounded), so they are dropped to bound memory.
    if (this.blocks.length > this.keepBlocks) this.blocks.shift();
  }

  /** Position inside the open block, to undo back to with `revertTo` (a batch that gets backtracked). */
  mark(): number {
    if (!this.current) throw new Error('Journal: no open block');
    return this.current.length;
  }

  revertTo(mark: number): void {
    const open = this.current;
    if (!open || mark > open.length) throw new Error('Journal: bad mark');
    while (open.length > mark) (open.pop() as () => void)();
  }

  /** Undo the open block, if any (a block whose generation threw). */
  abort(): void {
    const open = this.current;
    this.current = undefined;
    if (open) for (let i = open.length - 1; i >= 0; i--) open[i]();
  }

  /** How many committed blocks can still be undone. */
  get depth(): number {
    return this.blocks.length;
  }

  rollbackBlock(): void {
    const entries = this.blocks.pop();
    if (!entries) throw new Error('Journal: nothing left to roll back');
    for (let i = entries.length - 1; i >= 0; i--) entries[i]();
  }
}
