import type { Knex } from 'knex';
import type { SeriesRollups, TableDef } from '../../framework';
import { quoteIdent as quote } from './BlockIndexer';
import { asRecords, isRecord } from '../../framework';

/**
 * Why: from Oxford on a denunciation's receipt moves no tez; the node slashes the offender at a cycle
 * end, in that block's balance updates, each naming the denunciation (`delayed_operation_hash`). The
 * indexer links those flows to the denunciation's op row (`flow.delayed_op_id`); once they are
 * written this sets the op row's figures from them, as the receipt gave them before Oxford: the
 * accuser's reward as `volume`, the offender's losses by sub-balance as negative `fee`, `reward`,
 * `deposit`. The op row was folded into the series rollups long before: its buckets are refreshed.
 * A rollback that removes a slashing block takes the figures back to 0.
 */
export class DenunciationFigures {
  constructor(
    private readonly tables: { op: TableDef; flow: TableDef },
    private readonly rollups: SeriesRollups,
  ) {}

  /** Op row ids whose slashing the rollback in progress removes (one writer: one rollback at a time). */
  private unsettled: string[] = [];

  /** After a batch: the denunciations its blocks slashed, from their flows in the batch's heights. */
  async afterBatch(trx: Knex.Transaction, slashed: readonly bigint[], from: number, to: number): Promise<void> {
    if (slashed.length === 0) return;
    await this.settle(trx, slashed.map(String), from, to);
  }

  /** Before a rollback: the denunciations whose slashing flows it removes. */
  async beforeRollback(trx: Knex.Transaction, height: number): Promise<void> {
    const rows = await trx.raw(
      `select distinct delayed_op_id::text as id from ${name(this.tables.flow)}
        where height > ? and delayed_op_id is not null`,
      [height],
    );
    this.unsettled = idsOf(rows);
  }

  /**
   * After it: those of them still indexed lose their figures (one block slashes a denunciation, and
   * its flows went with it), counting no flow of the heights left.
   */
  async afterRollback(trx: Knex.Transaction, height: number): Promise<void> {
    const ids = this.unsettled;
    this.unsettled = [];
    if (ids.length > 0) await this.settle(trx, ids, height + 1, height);
  }

  /** Sets the figures of these op rows from their linked flows between two heights; refreshes the rollups. */
  private async settle(trx: Knex.Transaction, ids: readonly string[], from: number, to: number): Promise<void> {
    const { op, flow } = this.tables;
    // The receiver of a denunciation is its offender; debits of others are stakers'. Every credit is the
    // accuser's reward, also when the accuser is the offender (a baker denouncing itself).
    const sum = (amount: string, where: string): string =>
      `nullif(coalesce(sum(f.${amount}) filter (where ${where}), 0), 0)`;
    const offender = 'd.receiver_id is null or f.account_id = d.receiver_id';
    const lost = (category: string): string =>
      `-${sum('amount_out', `f.category = ${flow.column('category')!.type.literal(category)} and (${offender})`)}`;
    const changed = await trx.raw(
      `with figures as (
         select d.row_id,
                ${sum('amount_in', 'true')} as volume,
                ${lost('fees')} as fee, ${lost('rewards')} as reward, ${lost('deposits')} as deposit
           from ${name(op)} d
           left join ${name(flow)} f on f.delayed_op_id = d.row_id and f.height >= ? and f.height <= ?
          where d.row_id in (${ids.map(() => '?').join(', ')})
          group by d.row_id)
       update ${name(op.parts?.main ?? op)} o set volume = s.volume, fee = s.fee, reward = s.reward, deposit = s.deposit
         from figures s
        where o.row_id = s.row_id
          and (o.volume, o.fee, o.reward, o.deposit) is distinct from (s.volume, s.fee, s.reward, s.deposit)
       returning o.row_id::text as id`,
      [from, to, ...ids],
    );
    await this.rollups.refresh(trx, op, idsOf(changed));
  }
}

const name = (t: TableDef): string => `${quote(t.schema)}.${quote(t.storage)}`;

/** The `id` texts a raw statement returned (`returning …::text as id`, `select … as id`). */
function idsOf(result: unknown): string[] {
  return asRecords(isRecord(result) ? result.rows : undefined).flatMap((r) => (typeof r.id === 'string' ? [r.id] : []));
}
