import type { Knex } from 'knex';
import { type ExplorerRow, mutezToTez } from '../../../framework';
import type { ChainTables } from './ChainTables';

/**
 * Why: from Oxford on a denunciation's receipt moves no tez. The node slashes the offender at a cycle's
 * end, in that block's balance updates (`origin: delayed_operation`), which we store as block-level
 * `penalty` flows; the op row, written earlier and append-only, keeps zeros. This finds each
 * denunciation's slashing at answer time, for a whole page in two queries, and gives the amounts the
 * receipt would have listed before Oxford: the accuser's reward (`volume`) and the offender's losses
 * by sub-balance as negatives (`fee`, `reward`, `deposit`).
 *
 * The flows do not name the denunciation, so they are matched by what the protocol does: the
 * offender's pending denunciations are applied at a cycle end (that of the cycle after the
 * misbehaviour, the inclusion cycle or the next), in the order they were included, each as the
 * offender's debits followed by the accuser's credit.
 */

/** What one denunciation cost its offender and paid its accuser (tez, as op objects show amounts). */
export interface SlashingFigures {
  volume: number;
  fee: number;
  reward: number;
  deposit: number;
}

const TYPES = ['double_baking', 'double_endorsement', 'double_preendorsement'];
const AMOUNTS = ['volume', 'fee', 'reward', 'deposit'] as const;
const FLOW_AMOUNTS = ['amount_in', 'amount_out'];
const OP_COLUMNS = ['row_id', 'type', 'is_success', 'height', 'op_n', 'cycle', 'receiver_id', ...AMOUNTS];

interface Chunk {
  height: number;
  cycle: number;
  offender: string;
  lost: Record<string, bigint>;
  credit: bigint;
}

/** An applied denunciation (op row or object) that shows no amounts: Oxford+, or not slashed yet. */
const unslashed = (r: Readonly<Record<string, unknown>>): boolean =>
  TYPES.includes(r.type as string) && r.is_success === true && AMOUNTS.every((k) => Number(r[k] ?? 0) === 0);

const delayed = (r: ExplorerRow): boolean => unslashed(r) && r.receiver_id != null;

/**
 * Whether operation objects hold a denunciation whose figures may still come (its cycle end is not
 * indexed): such an answer is not fixed at its height, whatever its depth.
 */
export const awaitsSlashing = (objects: readonly Record<string, unknown>[]): boolean => objects.some(unslashed);

export class DelayedSlashings {
  constructor(private readonly tables: ChainTables) {}

  /** Figures by op row id of the page's Oxford+ denunciations whose slashing is indexed. */
  async of(rows: readonly ExplorerRow[]): Promise<Map<unknown, SlashingFigures>> {
    const out = new Map<unknown, SlashingFigures>();
    const page = rows.filter(delayed);
    if (page.length === 0) return out;
    const offenders = [...new Set(page.map((r) => String(r.receiver_id)))];
    const cycles = page.map((r) => r.cycle as number);
    const [minCycle, maxCycle] = [Math.min(...cycles), Math.max(...cycles)];
    const flows = this.tables.rows('flow', ['row_id', 'height', 'cycle', 'account_id', 'category', ...FLOW_AMOUNTS]);
    const ops = this.tables.rows('op', OP_COLUMNS);
    const blockLevel = (q: Knex.QueryBuilder): Knex.QueryBuilder => q.where({ operation: 'penalty' }).whereNull('op_c');
    // The blocks that slashed these offenders, with every slashing they hold (the others' bound the chunks).
    const flowTable = this.tables.db.reader.withSchema(flows.table.schema).from(flows.table.storage);
    const heights = blockLevel(flowTable.distinct('height'))
      .whereIn('account_id', offenders)
      .where('height', '>', Math.min(...page.map((r) => r.height as number)))
      .whereBetween('cycle', [minCycle, maxCycle + 1]);
    const [slashed, denounced] = await Promise.all([
      flows.readText(blockLevel(flows.query()).whereIn('height', heights).orderBy('row_id')),
      // Every denunciation of these offenders that the same cycle ends can slash, in inclusion order.
      ops.read(
        ops
          .query()
          .whereIn('type', TYPES)
          .where('is_success', true)
          .whereIn('receiver_id', offenders)
          .whereBetween('cycle', [minCycle - 1, maxCycle + 1])
          .orderBy([{ column: 'height' }, { column: 'op_n' }]),
      ),
    ]);
    const assigned = assign(chunksOf(slashed), denounced.filter(delayed));
    for (const r of page) {
      const chunk = assigned.get(String(r.row_id));
      if (chunk) out.set(r.row_id, figures(chunk));
    }
    return out;
  }
}

/**
 * Splits a block's slashing flows into one per denunciation: debits (the offender's, first, then its
 * stakers') closed by a credit (the accuser's reward). A slashing too small to pay a reward has no
 * credit and merges with the next one of the block.
 */
function chunksOf(flows: readonly Record<string, string | null>[]): Chunk[] {
  const chunks: Chunk[] = [];
  let open: Chunk | undefined;
  for (const f of flows) {
    const height = Number(f.height);
    const account = String(f.account_id);
    const out = BigInt(f.amount_out ?? 0); // text rows hold mutez
    if (open && (open.height !== height || open.credit > 0n)) open = undefined;
    if (out > 0n) {
      if (!open) chunks.push((open = { height, cycle: Number(f.cycle), offender: account, lost: {}, credit: 0n }));
      // Debits of other accounts are the offender's stakers' (unstaked deposits).
      if (account === open.offender) open.lost[String(f.category)] = (open.lost[String(f.category)] ?? 0n) + out;
    } else if (open) {
      open.credit = BigInt(f.amount_in ?? 0);
    }
  }
  return chunks;
}

/** Each slashing goes to its offender's earliest unmatched denunciation that its cycle end can apply. */
function assign(chunks: readonly Chunk[], denunciations: readonly ExplorerRow[]): Map<string, Chunk> {
  const out = new Map<string, Chunk>();
  const taken = new Set<unknown>();
  for (const c of chunks) {
    const applies = (r: ExplorerRow): boolean =>
      String(r.receiver_id) === c.offender && (r.height as number) < c.height && (r.cycle as number) >= c.cycle - 1;
    const d = denunciations.find((r) => !taken.has(r.row_id) && applies(r));
    if (!d) continue;
    taken.add(d.row_id);
    out.set(String(d.row_id), c);
  }
  return out;
}

function figures(c: Chunk): SlashingFigures {
  const tez = (mutez: bigint): number => Number(mutezToTez(mutez));
  const lost = (category: string): number => tez(-(c.lost[category] ?? 0n));
  return { volume: tez(c.credit), fee: lost('fees'), reward: lost('rewards'), deposit: lost('deposits') };
}
