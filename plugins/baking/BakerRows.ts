import { batchKey, type Entity, type EntityStore, type IndexContext, type Row } from '../../framework';
import { BAKER_OP_COLUMNS } from './BakerOpCounts';
import { INCOME_MONEY } from './IncomeDelta';
import { PENDING, PendingChanges } from './PendingChanges';

/** A baker's rights and income rows of one cycle: get-or-create by `cycle_address`. */
export class BakerRows {
  readonly rights: EntityStore;
  readonly income: EntityStore;
  /** Income additions and rights bits not written yet (PendingChanges). */
  readonly pending: PendingChanges;
  /** Rows found in this batch, by cycle and address (ROWS_SEEN). */
  private readonly rightsSeen: Map<number, Map<string, Entity>>;
  private readonly incomeSeen: Map<number, Map<string, Entity>>;

  constructor(
    private readonly ctx: IndexContext,
    private readonly cycleStartTime: (cycle: number) => Promise<Date | null>,
    /** The snapshot columns of a new income row (the stake its rights came from), when known. */
    private readonly snapshotOf: (cycle: number, address: string) => Promise<Row | undefined>,
  ) {
    this.rights = ctx.entities('rights', 'row_key');
    this.income = ctx.entities('income', 'row_key');
    ({ rights: this.rightsSeen, income: this.incomeSeen } = ctx.state.get(ROWS_SEEN));
    this.pending = ctx.state.get(PENDING);
  }

  /**
   * Writes the pending changes now: before a row's counters are read and rewritten whole, and at a journaled block's
   * end.
   */
  settle(): void {
    this.pending.write(this.ctx);
  }

  /** A row already found in this batch, without waiting (most lookups: every attester, every block). */
  seenRights(cycle: number, address: string): Entity | undefined {
    return this.rightsSeen.get(cycle)?.get(address);
  }

  seenIncome(cycle: number, address: string): Entity | undefined {
    return this.incomeSeen.get(cycle)?.get(address);
  }

  private async find(
    store: EntityStore,
    seen: Map<number, Map<string, Entity>>,
    cycle: number,
    address: string,
  ): Promise<Entity | undefined> {
    let memo = seen.get(cycle);
    if (!memo) seen.set(cycle, (memo = new Map()));
    let hit = memo.get(address);
    if (!hit && (hit = await store.get(`${cycle}_${address}`))) memo.set(address, hit);
    return hit;
  }

  async accountId(address: string): Promise<bigint | undefined> {
    return (await this.ctx.entities('account', 'address').get(address))?.row_id;
  }

  /** Loads the accounts and the cycle's rights and income rows of many bakers in a few queries. */
  async preload(cycle: number, addresses: readonly string[]): Promise<void> {
    await this.ctx.entities('account', 'address').preload(addresses);
    await this.rights.preload(addresses.map((a) => `${cycle}_${a}`));
    await this.income.preload(addresses.map((a) => `${cycle}_${a}`));
  }

  /** A baker's rights row of a cycle, if there is one. */
  findRights(cycle: number, address: string): Promise<Entity | undefined> {
    return this.find(this.rights, this.rightsSeen, cycle, address);
  }

  async rightsRow(cycle: number, start: number, address: string): Promise<Entity | undefined> {
    const hit = await this.findRights(cycle, address);
    if (hit) return hit;
    const account = await this.accountId(address);
    if (account === undefined) return undefined;
    const key = `${cycle}_${address}`;
    return this.rights.insert({
      row_key: key,
      cycle,
      height: start,
      account_id: account,
      address,
      baking_rights: null,
      endorsing_rights: null,
      blocks_baked: Buffer.alloc(0),
      blocks_endorsed: Buffer.alloc(0),
      seeds_required: Buffer.alloc(0),
      seeds_revealed: Buffer.alloc(0),
    });
  }

  async incomeRow(cycle: number, address: string): Promise<Entity | undefined> {
    const hit = await this.find(this.income, this.incomeSeen, cycle, address);
    if (hit) return hit;
    const key = `${cycle}_${address}`;
    const account = await this.accountId(address);
    if (account === undefined) return undefined;
    // Money and operation counters start at 0; they are summed from the blocks.
    const zeros: Row = {};
    for (const c of INCOME_MONEY) zeros[c] = 0n;
    for (const c of BAKER_OP_COLUMNS) zeros[c] = 0;
    return this.income.insert({
      row_key: key,
      cycle,
      account_id: account,
      address,
      ...EMPTY_EXPECTATIONS,
      ...(await this.snapshotOf(cycle, address)),
      n_blocks_baked: 0,
      n_blocks_proposed: 0,
      n_blocks_endorsed: 0,
      n_slots_endorsed: 0,
      n_seeds_revealed: 0,
      total_income: 0n,
      total_loss: 0n,
      ...zeros,
      start_time: await this.cycleStartTime(cycle),
      end_time: null,
    });
  }
}

/**
 * The rights and income rows found in this batch, by cycle and address: an attester's rows are asked
 * for several times a block and again every block, and a lookup by address skips building and hashing
 * a new `cycle_address` key each time. Batch state: the stores may drop their cache between batches,
 * and a failed batch or a rollback drops this with them.
 */
const ROWS_SEEN = batchKey('baking.rows-seen', () => ({
  rights: new Map<number, Map<string, Entity>>(),
  income: new Map<number, Map<string, Entity>>(),
}));

/** Columns that need the node's rights or the stake snapshot: null until those are known. */
const EMPTY_EXPECTATIONS: Row = {
  rolls: null,
  balance: null,
  delegated: null,
  active_stake: null,
  staking_balance: null,
  own_stake: null,
  n_delegations: null,
  n_stakers: null,
  n_baking_rights: null,
  n_endorsing_rights: null,
  luck: null,
  luck_percent: null,
  contribution_percent: null,
  performance_percent: null,
  n_blocks_not_baked: null,
  n_blocks_not_endorsed: null,
  expected_income: null,
};
