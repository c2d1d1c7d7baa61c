import {
  type Catalog,
  type CycleFiguresSource,
  type Database,
  type TableDef,
  asDate,
  asRecords,
} from '../../../framework';
import { ChainTables, RightsSnapshotLag } from '../../core-chain';

type Raw = Record<string, unknown>;

/**
 * The cycle object's figures that need rights and snapshots, from the income and snapshot rows:
 * - `working_endorsers`: bakers with an attestation of the cycle's levels included;
 * - `missed_endorsements`: levels whose attestation right went unused (null while rights are unknown);
 * - `endorsement_rate`: attestation slots used in percent of the slots of the cycle's rights, once
 *   the cycle is complete (before, the rights of levels not yet attested are in the count);
 * - `is_snapshot` and the selected snapshot behind the cycle's rights (`snapshot_*`; null while none is known).
 */
export class CycleFiguresLookup implements CycleFiguresSource {
  private readonly income: TableDef;
  private readonly snapshot: TableDef;
  private readonly lags: RightsSnapshotLag;

  constructor(
    private readonly db: Database,
    catalog: Catalog,
  ) {
    this.income = catalog.require('income');
    this.snapshot = catalog.require('snapshot');
    this.lags = new RightsSnapshotLag(new ChainTables(db, catalog));
  }

  async figures(cycle: number, complete: boolean): Promise<Raw> {
    const knex = this.db.reader;
    const from = (t: TableDef) => knex.withSchema(t.schema).from(t.storage);
    const [counts] = asRecords(
      await from(this.income)
        .where('cycle', cycle)
        .select(
          knex.raw(
            [
              'count(*) filter (where "n_blocks_endorsed" > 0)::text as working',
              'sum("n_blocks_not_endorsed")::text as missed',
              'bool_or("n_endorsing_rights" is not null) as known',
              'sum("n_slots_endorsed")::text as used',
              'sum("n_endorsing_rights")::text as slots',
            ].join(', '),
          ),
        ),
    );
    const known = counts?.known === true;
    const slots = Number(counts?.slots ?? 0);
    const lag = await this.lags.of(cycle);
    const behind: Raw | undefined =
      lag === undefined
        ? undefined
        : await from(this.snapshot)
            .where({ cycle: cycle - lag, is_baker: true, is_selected: true })
            .first('height', 'time', 'index');
    const taken = await from(this.snapshot).where('cycle', cycle).first('height');
    return {
      working_endorsers: Number(counts?.working ?? 0),
      missed_endorsements: known ? Number(counts?.missed ?? 0) : null,
      endorsement_rate:
        known && complete && slots > 0 ? Number(((Number(counts?.used ?? 0) / slots) * 100).toFixed(2)) : null,
      is_snapshot: taken !== undefined,
      snapshot_height: behind ? Number(behind.height) : null,
      snapshot_index: behind ? Number(behind.index) : null,
      snapshot_time: behind ? asDate(behind.time).toISOString().replace('.000Z', 'Z') : null,
    };
  }
}
