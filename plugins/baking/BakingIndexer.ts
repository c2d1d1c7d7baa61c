import {
  bigOrZero,
  type Entity,
  type IndexContext,
  type NormalizedBlock,
  type NormalizedOperation,
  type Row,
  type TableDef,
} from '../../framework';
import { countBakerOp } from './BakerOpCounts';
import { BakerRows } from './BakerRows';
import { BitsetBuilder, countBits } from './Bitset';
import { CycleRights } from './CycleRights';
import { blockIncome } from './IncomeDelta';
import { incomeScores } from './IncomeScores';
import { nodeAttestationRights, nodeBakingRights } from './NodeRights';
import { RewardRates, rightsValue } from './RewardRates';
import { SeedCommitments } from './SeedCommitments';
import { SnapshotWriter } from './SnapshotWriter';

const LOSSES = new Set(['accusation_loss', 'seed_loss', 'endorsing_loss']);
const INCOMES = new Set(['baking_income', 'endorsing_income', 'accusation_income', 'seed_income', 'fees_income']);
/** Income counters that need the node's rights: null while those are unknown. */
const RIGHTS_COUNTERS = ['n_baking_rights', 'n_endorsing_rights', 'n_blocks_not_baked', 'n_blocks_not_endorsed'];
const num = (v: unknown): number => Number(v ?? 0);

/**
 * baking's block handler. Per baker and cycle it counts, from the block as indexed, blocks baked and
 * proposed, attestations, baker operations (BakerOpCounts) and receipts' income (IncomeDelta), and
 * marks them in the rights bitsets, with the seed nonces committed and revealed (SeedCommitments).
 * At a cycle's first block it asks the node for the cycle's round-0 baking rights (fixed by then), and
 * every `window` levels for the attestation rights of the next window; with them it also counts
 * round-0 blocks and attestations missed. Known rights stay in memory for the current and the
 * previous cycle and are rebuilt from the rights rows after a restart or rollback.
 */
export class BakingIndexer {
  private known = new Map<number, CycleRights | null>();
  private readonly snapshots = new SnapshotWriter();
  private readonly rates = new RewardRates();
  private readonly seeds = new SeedCommitments();
  private lastLevel = -1;
  /** Time of block `lastLevel`: the end of a cycle when the next block starts a new one. */
  private lastTime: Date | null = null;

  constructor(
    private readonly rightsTable: TableDef,
    private readonly blockTable: TableDef,
    /** Levels of attestation rights asked for at once (`baking.rights_window`). */
    private readonly window: number,
  ) {}

  forget(): void {
    this.known.clear();
    this.seeds.forget();
    this.lastLevel = -1;
  }

  async index(block: NormalizedBlock, ctx: IndexContext): Promise<void> {
    this.rates.note(block);
    await this.snapshots.write(block, ctx);
    if (block.level <= this.lastLevel) this.forget();
    const previousTime = this.lastLevel === block.level - 1 ? this.lastTime : null;
    this.lastLevel = -1;
    if (block.level === 0 || !block.hasMetadata || !block.baker) return;
    const start = block.level - block.cyclePosition;
    const rows = new BakerRows(
      ctx,
      (cycle) => this.cycleStartTime(ctx, block, cycle, start),
      (cycle, address) => this.snapshots.incomeColumns(ctx, block.protocol, cycle, address),
    );
    if (block.cyclePosition === 0) {
      if (block.cycle > 0)
        await this.closeCycle(ctx, block.cycle - 1, previousTime ?? (await this.blockTime(ctx, block.level - 1)));
      await this.fetchBakingRights(ctx, rows, block.cycle, start);
    }
    const rights = await this.rightsOf(ctx, block.cycle, start);
    if (rights && block.cyclePosition % this.window === 0) {
      await this.fetchAttestationWindow(ctx, rows, rights, block.cyclePosition);
      if (block.cyclePosition + this.window >= rights.length) await this.valueRights(ctx, rows, rights, block.protocol);
    }
    await this.countBlock(block, block.baker, ctx, rows, start, rights);
    await this.countOperations(block, block.proposer ?? block.baker, ctx, rows, start);
    await this.addIncome(block, rows);
    // Near the head each block's changes are journaled on their own; catching up, the batch's end writes them
    // (plugin.ts).
    if (ctx.mode === 'live') rows.settle();
    for (const c of this.known.keys()) if (c < block.cycle - 1) this.known.delete(c);
    this.lastLevel = block.level;
    this.lastTime = new Date(block.time);
  }

  /** When a cycle is over: its income rows get the time of its last block as `end_time`. */
  private async closeCycle(ctx: IndexContext, cycle: number, time: Date | null): Promise<void> {
    if (!time) return;
    const store = ctx.entities('income', 'row_key');
    const keys = new Set<string>();
    for (const r of await ctx.read('income').where('cycle', cycle).select('row_key')) keys.add(String(r.row_key));
    for (const e of store.pending()) if (Number(e.cycle) === cycle) keys.add(String(e.row_key));
    await store.preload(keys);
    for (const key of [...keys].sort()) {
      const row = await store.get(key);
      if (row) store.update(row, { end_time: time });
    }
  }

  private async blockTime(ctx: IndexContext, height: number): Promise<Date | null> {
    const row = await ctx.read(this.blockTable).where({ height, is_orphan: false }).first('time');
    return row ? new Date(row.time) : null;
  }

  /** At a cycle's first block: its round-0 baking rights (one per level), and counters that need rights start at 0. */
  private async fetchBakingRights(ctx: IndexContext, rows: BakerRows, cycle: number, start: number): Promise<void> {
    const baking = await nodeBakingRights(ctx, cycle, start);
    if (!baking) return void this.known.set(cycle, null);
    const rights = new CycleRights(cycle, start);
    const bits = new Map<string, BitsetBuilder>();
    for (const [pos, baker] of baking) {
      rights.addBaking(pos, baker);
      let b = bits.get(baker);
      if (!b) bits.set(baker, (b = new BitsetBuilder()));
      b.set(pos);
    }
    const bakers = [...bits.keys()].sort();
    await rows.preload(cycle, bakers);
    await this.snapshots.preloadIncomeColumns(ctx, ctx.block.protocol, cycle, bakers);
    rows.settle();
    for (const baker of bakers) {
      const r = await rows.rightsRow(cycle, start, baker);
      if (r)
        rows.rights.update(r, {
          baking_rights: bits.get(baker)!.done(),
          endorsing_rights: r.endorsing_rights ?? Buffer.alloc(0),
        });
      await this.knownRightsIncome(rows, cycle, baker, { n_baking_rights: countBits(bits.get(baker)!.done()) });
    }
    this.known.set(cycle, rights);
  }

  /**
   * Every `window` levels: the attestation rights of the next window of the cycle, added to the rights
   * rows' bitsets and the income rows' slot counts. Asked window by window so no answer is a whole
   * cycle's committee lists; a cycle's counts are complete once its last window is in.
   */
  private async fetchAttestationWindow(
    ctx: IndexContext,
    rows: BakerRows,
    rights: CycleRights,
    position: number,
  ): Promise<void> {
    const levels: number[] = [];
    for (let p = position; p < Math.min(position + this.window, rights.length); p++) levels.push(rights.start + p);
    const got = levels.length ? await nodeAttestationRights(ctx, levels, rights.start) : undefined;
    if (!got) return;
    const bits = new Map<string, BitsetBuilder>();
    for (const [pos, set] of got.attesters)
      for (const baker of set) {
        rights.addAttester(pos, baker);
        let b = bits.get(baker);
        if (!b)
          bits.set(
            baker,
            (b = new BitsetBuilder((await rows.rightsRow(rights.cycle, rights.start, baker))?.endorsing_rights)),
          );
        b.set(pos);
      }
    const bakers = [...bits.keys()].sort();
    rows.settle();
    for (const baker of bakers) {
      const r = await rows.rightsRow(rights.cycle, rights.start, baker);
      if (r)
        rows.rights.update(r, {
          endorsing_rights: bits.get(baker)!.done(),
          baking_rights: r.baking_rights ?? Buffer.alloc(0),
        });
      await this.knownRightsIncome(rows, rights.cycle, baker, { n_endorsing_rights: got.slots.get(baker) ?? 0 });
    }
  }

  /**
   * Once a cycle's rights are all in: each holder's expected income (the value of its rights), and
   * its luck against a fair share of the cycle's rights (its baking power at the snapshot over all
   * bakers'). Left null without reward rates (no node) or, for luck, without the snapshot.
   */
  private async valueRights(ctx: IndexContext, rows: BakerRows, rights: CycleRights, protocol: string): Promise<void> {
    const rates = await this.rates.of(ctx, protocol, rights.cycle);
    if (!rates) return;
    const total = await this.snapshots.totalActiveStake(ctx, protocol, rights.cycle);
    rows.settle();
    const length = BigInt(rights.length);
    const cycleValue = rightsValue(rates, length, length * rates.committee);
    for (const baker of [...rights.holders()].sort()) {
      const row = await rows.incomeRow(rights.cycle, baker);
      if (!row) continue;
      const expected = rightsValue(rates, bigOrZero(row.n_baking_rights), bigOrZero(row.n_endorsing_rights));
      const patch: Row = { expected_income: expected };
      if (total && row.active_stake !== null && row.active_stake !== undefined) {
        const fair = (bigOrZero(row.active_stake) * cycleValue) / total;
        patch.luck = expected - fair;
        patch.luck_percent = fair > 0n ? Number(10000n + ((expected - fair) * 10000n) / fair) : null;
      }
      rows.income.update(row, { ...patch, ...incomeScores(row, patch) });
    }
  }

  /**
   * Adds rights to a baker's income row, whose rights counters become known (0, not null) from then on
   * (the caller settles pending additions first: the counters are rewritten whole).
   */
  private async knownRightsIncome(
    rows: BakerRows,
    cycle: number,
    baker: string,
    add: Record<string, number>,
  ): Promise<void> {
    const row = await rows.incomeRow(cycle, baker);
    if (!row) return;
    const patch: Record<string, number> = {};
    for (const c of RIGHTS_COUNTERS) patch[c] = num(row[c]) + (add[c] ?? 0);
    rows.income.update(row, patch);
  }

  /** The cycle's rights from memory or its rows; null when the node never told them. */
  private async rightsOf(ctx: IndexContext, cycle: number, start: number): Promise<CycleRights | null> {
    const hit = this.known.get(cycle);
    if (hit !== undefined) return hit;
    const t = this.rightsTable;
    const rows = await ctx
      .read(t)
      .where('cycle', cycle)
      .whereNotNull('baking_rights')
      .select('address', 'baking_rights', 'endorsing_rights');
    const rights = rows.length ? CycleRights.fromRows(cycle, start, rows) : null;
    this.known.set(cycle, rights);
    return rights;
  }

  /**
   * The block's baker: blocks baked and proposed, a round-0 right missed, and the seed nonce it commits to (a
   * `seed_nonce_hash` in its header).
   */
  private async countBlock(
    block: NormalizedBlock,
    baker: string,
    ctx: IndexContext,
    rows: BakerRows,
    start: number,
    rights: CycleRights | null,
  ): Promise<void> {
    const r = await rows.rightsRow(block.cycle, start, baker);
    if (r) {
      rows.pending.setBit(r, 'blocks_baked', block.cyclePosition);
      if (block.nonceHash) {
        rows.pending.setBit(r, 'seeds_required', block.cyclePosition);
        (await this.seeds.of(ctx, block.cycle)).set(block.level, baker);
      }
    }
    await this.bump(rows, block.cycle, baker, { n_blocks_baked: 1 });
    if (block.proposer) await this.bump(rows, block.cycle, block.proposer, { n_blocks_proposed: 1 });
    const due = rights?.bakerAt.get(block.cyclePosition);
    if (due && (due !== baker || block.round > 0)) await this.bump(rows, block.cycle, due, { n_blocks_not_baked: 1 });
  }

  /**
   * One walk over the block's operations: each baker's operation counters (BakerOpCounts, each also
   * in `n_baker_ops`) and attestations of the block's cycle summed per baker into one addition, the
   * attested levels' bits, and seed nonce revelations; then the attesters that missed the level.
   */
  private async countOperations(
    block: NormalizedBlock,
    includer: string,
    ctx: IndexContext,
    rows: BakerRows,
    start: number,
  ): Promise<void> {
    const sums = new Map<string, Record<string, number>>();
    const sum = (baker: string): Record<string, number> => {
      let add = sums.get(baker);
      if (!add) sums.set(baker, (add = { n_baker_ops: 0 }));
      return add;
    };
    const count = (baker: string, column: string): void => {
      const add = sum(baker);
      add[column] = (add[column] ?? 0) + 1;
      add.n_baker_ops++;
    };
    const attested = new Map<number, Set<string>>();
    for (const op of block.operations) {
      countBakerOp(op, includer, count);
      if (op.type === 'endorsement' && op.isSuccess) {
        const lookingUp = this.countAttestation(op, block, rows, start, attested, sum);
        if (lookingUp) await lookingUp;
      } else if (op.type === 'nonce_revelation' && !op.isInternal)
        await this.countRevelation(op, block, ctx, rows, start, sum(includer));
    }
    for (const [baker, add] of sums) {
      const lookingUp = this.bump(rows, block.cycle, baker, add);
      if (lookingUp) await lookingUp;
    }
    await this.countMissedAttestations(block, ctx, rows, start, attested);
  }

  /**
   * An attestation included in this block: marks the attested level's bit and counts the block and
   * slots (into the block's sums when the level is of this cycle, else into the previous cycle's row).
   * Almost always the attester's row of this cycle is in memory: then nothing is awaited (a promise
   * per attestation is most of what this costs); a promise only when a row must be looked up.
   */
  private countAttestation(
    op: NormalizedOperation,
    block: NormalizedBlock,
    rows: BakerRows,
    start: number,
    attested: Map<number, Set<string>>,
    sum: (baker: string) => Record<string, number>,
  ): Promise<void> | undefined {
    const baker = op.consensus?.delegate ?? op.sender;
    if (!baker) return undefined;
    const level = op.consensus?.level ?? block.level - 1;
    const slots = op.consensus?.power ?? 0;
    const seen = level >= start ? rows.seenRights(block.cycle, baker) : undefined;
    if (!seen) return this.countAttestationLookingUp(block, rows, start, attested, baker, level, slots, sum);
    if (firstAttestation(attested, level, baker)) markAttestation(rows, seen, start, level, slots, sum(baker));
    return undefined;
  }

  private async countAttestationLookingUp(
    block: NormalizedBlock,
    rows: BakerRows,
    start: number,
    attested: Map<number, Set<string>>,
    baker: string,
    level: number,
    slots: number,
    sum: (baker: string) => Record<string, number>,
  ): Promise<void> {
    const cycle = level >= start ? block.cycle : block.cycle - 1;
    const row = await rows.findRights(cycle, baker);
    const cycleStart = level >= start ? start : row ? num(row.height) : undefined;
    if (cycleStart === undefined || !firstAttestation(attested, level, baker)) return;
    const r: Entity | undefined = row ?? (await rows.rightsRow(cycle, cycleStart, baker));
    if (cycle === block.cycle) return markAttestation(rows, r, cycleStart, level, slots, sum(baker));
    const add = {};
    markAttestation(rows, r, cycleStart, level, slots, add);
    await this.bump(rows, cycle, baker, add);
  }

  /** Attestations of a level are included in the next block: whoever had rights for it and is not here missed it. */
  private async countMissedAttestations(
    block: NormalizedBlock,
    ctx: IndexContext,
    rows: BakerRows,
    start: number,
    attested: Map<number, Set<string>>,
  ): Promise<void> {
    const level = block.level - 1;
    const cycle = level >= start ? block.cycle : block.cycle - 1;
    const rights = level >= start ? this.known.get(cycle) : await this.previousRights(ctx, cycle);
    const due = rights?.attestersAt(level - rights.start);
    for (const baker of due ?? [])
      if (!attested.get(level)?.has(baker)) await this.bump(rows, cycle, baker, { n_blocks_not_endorsed: 1 });
  }

  /**
   * A seed nonce revelation: `n_seeds_revealed` of the including baker (as the original counts it), and
   * the revealed level's bit in its committer's `seeds_revealed` (the level is in the previous cycle).
   */
  private async countRevelation(
    op: NormalizedOperation,
    block: NormalizedBlock,
    ctx: IndexContext,
    rows: BakerRows,
    start: number,
    add: Record<string, number>,
  ): Promise<void> {
    add.n_seeds_revealed = (add.n_seeds_revealed ?? 0) + 1;
    const level = Number(op.raw.level);
    if (!Number.isInteger(level)) return;
    const cycle = level >= start ? block.cycle : block.cycle - 1;
    const committer = (await this.seeds.of(ctx, cycle)).get(level);
    const r = committer ? await rows.findRights(cycle, committer) : undefined;
    if (r) rows.pending.setBit(r, 'seeds_revealed', level - num(r.height));
  }

  private async previousRights(ctx: IndexContext, cycle: number): Promise<CycleRights | null | undefined> {
    const hit = this.known.get(cycle);
    if (hit !== undefined) return hit;
    const t = this.rightsTable;
    const first = await ctx.read(t).where('cycle', cycle).first('height');
    return first ? this.rightsOf(ctx, cycle, num(first.height)) : null;
  }

  private async addIncome(block: NormalizedBlock, rows: BakerRows): Promise<void> {
    for (const e of blockIncome(block)) {
      const patch: Record<string, bigint> = { [e.column]: e.amount };
      if (INCOMES.has(e.column)) patch.total_income = e.amount;
      if (LOSSES.has(e.column)) patch.total_loss = e.amount;
      await this.bump(rows, block.cycle, e.baker, patch);
    }
  }

  /** Adds to counters and money columns of a baker's income row (written by PendingChanges). */
  private bump(
    rows: BakerRows,
    cycle: number,
    baker: string,
    add: Record<string, number | bigint>,
  ): Promise<void> | void {
    const seen = rows.seenIncome(cycle, baker);
    if (seen) return rows.pending.add(seen, add);
    return rows.incomeRow(cycle, baker).then((row) => row && rows.pending.add(row, add));
  }

  /** Time of a cycle's first block: this block's when it is that block, else from core-chain's block table. */
  private async cycleStartTime(
    ctx: IndexContext,
    block: NormalizedBlock,
    cycle: number,
    start: number,
  ): Promise<Date | null> {
    if (cycle === block.cycle && block.cyclePosition === 0) return new Date(block.time);
    const t = this.blockTable;
    const q = ctx.read(t).where('cycle', cycle).where('is_orphan', false);
    const row = await (cycle === block.cycle ? q.where('height', start) : q.orderBy('height')).first('time');
    return row ? new Date(row.time) : null;
  }
}

/** The first attestation of a level by a baker in this block (an aggregate and its members count once). */
function firstAttestation(attested: Map<number, Set<string>>, level: number, baker: string): boolean {
  let set = attested.get(level);
  if (!set) attested.set(level, (set = new Set()));
  if (set.has(baker)) return false;
  set.add(baker);
  return true;
}

/** The attested level's bit in the rights row, and the block and slots added to the baker's sums. */
function markAttestation(
  rows: BakerRows,
  row: Entity | undefined,
  cycleStart: number,
  level: number,
  slots: number,
  add: Record<string, number>,
): void {
  if (row) rows.pending.setBit(row, 'blocks_endorsed', level - cycleStart);
  add.n_blocks_endorsed = (add.n_blocks_endorsed ?? 0) + 1;
  add.n_slots_endorsed = (add.n_slots_endorsed ?? 0) + slots;
}
