import {
  mutezToTez,
  selectColumn,
  timeOrZero,
  whereColumnIn,
  type Catalog,
  type Database,
  type ExplorerRow,
  type TableDef,
  asDate,
  asRecord,
  asRecords,
  bigOrZero,
} from '../../../framework';
import { BAKER_OP_COLUMNS } from '../BakerOpCounts';
import { asBits, hasBit } from '../Bitset';

type Raw = Record<string, unknown>;
const int = (v: unknown): number => Number(v ?? 0);
const rfc3339 = (v: unknown): string => asDate(v).toISOString().replace('.000Z', 'Z');

/** Cycles the `avg_*_64` statistics average over, as the original. */
const RECENT_CYCLES = 64;

/**
 * A baker's `stats` and `events` (the SDK's index.BakerStatistics and index.BakerEvents):
 * - stats sum its income rows (rewards, fees, losses, blocks and attestations) and average the last
 *   64 cycles' luck, performance and contribution (of the cycles that have them), and sum the
 *   operation counters (BakerOpCounts);
 * - events: its last block (block table) and last attestation (op table), its next round-0 baking and
 *   attestation rights after the head (rights bitsets), timed at the protocol's minimal block delay.
 */
export class BakerActivity {
  private readonly income: TableDef;
  private readonly rights: TableDef;
  private readonly blocks: TableDef;
  private readonly ops: TableDef;
  private readonly protocol: TableDef;

  constructor(
    private readonly db: Database,
    catalog: Catalog,
  ) {
    this.income = catalog.require('income');
    this.rights = catalog.require('rights');
    this.blocks = catalog.require('block');
    this.ops = catalog.require('op');
    this.protocol = catalog.require('protocol');
  }

  private from(t: TableDef) {
    return this.db.reader.withSchema(t.schema).from(t.storage);
  }

  /** Statistics of several bakers with two grouped queries. */
  async stats(bakers: readonly string[]): Promise<Map<string, ExplorerRow>> {
    const out = new Map<string, ExplorerRow>();
    if (bakers.length === 0) return out;
    const knex = this.db.reader;
    const sums = asRecords(
      await this.from(this.income)
        .whereIn('address', [...bakers])
        .groupBy('address')
        .select(
          'address',
          knex.raw(
            [
              'sum("baking_income" + "endorsing_income" + "seed_income" + "accusation_income")::text as rewards',
              'sum("fees_income")::text as fees',
              'sum("total_loss")::text as lost',
              'sum("n_blocks_baked")::text as baked',
              'sum("n_blocks_proposed")::text as proposed',
              'sum(coalesce("n_blocks_not_baked", 0))::text as not_baked',
              'sum("n_blocks_endorsed")::text as endorsed',
              'sum(coalesce("n_blocks_not_endorsed", 0))::text as not_endorsed',
              'sum("n_slots_endorsed")::text as slots',
              'max("cycle")::text as last_cycle',
              ...BAKER_OP_COLUMNS.map((c) => `sum("${c}")::text as "${c}"`),
            ].join(', '),
          ),
        ),
    );
    const newest = Math.max(...sums.map((s) => int(s.last_cycle)), 0);
    const recent = asRecords(
      await this.from(this.income)
        .whereIn('address', [...bakers])
        .where('cycle', '>', newest - RECENT_CYCLES)
        .groupBy('address')
        .select(
          'address',
          knex.raw(
            'round(avg("luck_percent"))::text as luck, round(avg("performance_percent"))::text as performance, round(avg("contribution_percent"))::text as contribution',
          ),
        ),
    );
    const averages = new Map(recent.map((r) => [String(r.address), r]));
    const tez = (v: unknown): number => Number(mutezToTez(bigOrZero(v)));
    for (const s of sums) {
      const a = averages.get(String(s.address));
      const avg = (v: unknown) => (v === null || v === undefined ? null : int(v));
      out.set(String(s.address), {
        total_rewards_earned: tez(s.rewards),
        total_fees_earned: tez(s.fees),
        total_lost: tez(s.lost),
        blocks_baked: int(s.baked),
        blocks_proposed: int(s.proposed),
        blocks_not_baked: int(s.not_baked),
        blocks_endorsed: int(s.endorsed),
        blocks_not_endorsed: int(s.not_endorsed),
        slots_endorsed: int(s.slots),
        avg_luck_64: avg(a?.luck),
        avg_performance_64: avg(a?.performance),
        avg_contribution_64: avg(a?.contribution),
        ...Object.fromEntries(BAKER_OP_COLUMNS.map((k) => [k, int(s[k])])),
      });
    }
    return out;
  }

  async events(baker: string): Promise<ExplorerRow> {
    const [bake, attest, head] = await Promise.all([
      this.from(this.blocks)
        .where({ baker, is_orphan: false })
        .orderBy('height', 'desc')
        .first('height', 'hash', 'time'),
      whereColumnIn(
        this.from(this.ops).where('type', this.ops.column('type')!.type.parse('endorsement')),
        this.ops.column('sender')!,
        [baker],
      )
        .orderBy('row_id', 'desc')
        .first('height', selectColumn(this.db.reader, this.ops.column('block')!), 'time'),
      this.from(this.blocks).where('is_orphan', false).orderBy('height', 'desc').first('height', 'time', 'protocol'),
    ]);
    const next = head ? await this.nextRights(baker, int(head.height)) : { bake: null, attest: null };
    const delay = head ? await this.blockDelay(String(head.protocol)) : undefined;
    const at = (height: number | null) =>
      height === null || !head || delay === undefined
        ? timeOrZero(null)
        : rfc3339(new Date(Date.parse(rfc3339(head.time)) + (height - int(head.height)) * delay * 1000));
    return {
      last_bake_height: bake ? int(bake.height) : 0,
      last_bake_block: bake ? String(bake.hash) : '',
      last_bake_time: bake ? rfc3339(bake.time) : timeOrZero(null),
      last_endorse_height: attest ? int(attest.height) : 0,
      last_endorse_block: attest ? String(attest.block) : '',
      last_endorse_time: attest ? rfc3339(attest.time) : timeOrZero(null),
      next_bake_height: next.bake ?? 0,
      next_bake_time: at(next.bake),
      next_endorse_height: next.attest ?? 0,
      next_endorse_time: at(next.attest),
    };
  }

  /**
   * The first round-0 baking and attestation rights after the head in the rights rows of the head's cycle and later.
   */
  private async nextRights(baker: string, head: number): Promise<{ bake: number | null; attest: number | null }> {
    const rows = asRecords(
      await this.from(this.rights)
        .where('address', baker)
        .where('height', '>', head - 100_000)
        .orderBy('cycle')
        .select('height', 'baking_rights', 'endorsing_rights'),
    );
    const first = (column: string): number | null => {
      for (const r of rows) {
        const bits = asBits(r[column]);
        const start = int(r.height);
        for (let i = Math.max(0, head + 1 - start); bits && i < bits.length * 8; i++)
          if (hasBit(bits, i)) return start + i;
      }
      return null;
    };
    return { bake: first('baking_rights'), attest: first('endorsing_rights') };
  }

  private async blockDelay(protocol: string): Promise<number | undefined> {
    const row: Raw | undefined = await this.from(this.protocol)
      .where('protocol', protocol)
      .orderBy('height', 'desc')
      .first('constants');
    const raw = row?.constants;
    const c = asRecord(typeof raw === 'string' ? JSON.parse(raw) : raw);
    const delay =
      c?.minimal_block_delay ?? (Array.isArray(c?.time_between_blocks) ? c.time_between_blocks[0] : undefined);
    return delay === undefined ? undefined : Number(delay);
  }
}
