import { Knex } from 'knex';
import { Catalog } from '../catalog/Catalog';
import { physicalTables, type TableDef } from '../catalog/CatalogModel';
import type { Logger } from '../util/Logger';
import type { DatabaseKind } from './Database';
import { isPartitioned, partitionRanges } from './HeightPartitions';
import { META_SCHEMA, quote } from './SchemaMigrator';

/**
 * Packs each height range of the partitioned tables once it is final (its end more than the reorg depth
 * below the head: nothing writes it again). Why: an index whose entries go into the middle of its pages
 * (op_attest's `(sender_id, row_id)`: each baker's attestations of every block) splits them and leaves
 * them about half full; rebuilt, it fills them (docs/performance.md has the measure). On Postgres the
 * REINDEX is CONCURRENTLY: readers and the indexer's writes to other ranges go on. One range a round;
 * the ranges packed are recorded in `tzidx.packed_ranges`, so a restart does not pack them again.
 */
export class RangePacking {
  private readonly tables: Array<TableDef & { partitionSpan: number }>;
  /** The final height at which a range may next become final (none before: no query until then). */
  private next = 0;

  constructor(
    catalog: Catalog,
    private readonly kind: DatabaseKind,
    private readonly log: Logger,
  ) {
    this.tables = [...catalog.tables.values()].flatMap(physicalTables).filter(isPartitioned);
  }

  /** Packs the oldest final range not packed yet, if any (`finalHeight`: the highest height no reorg reaches). */
  async afterCommit(knex: Knex, finalHeight: number): Promise<string | undefined> {
    if (this.tables.length === 0 || finalHeight < this.next) return undefined;
    const packed = await this.round(knex, finalHeight);
    if (!packed) {
      const span = Math.min(...this.tables.map((t) => t.partitionSpan));
      this.next = (Math.floor((finalHeight + 1) / span) + 1) * span - 1;
    }
    return packed;
  }

  private async round(knex: Knex, finalHeight: number): Promise<string | undefined> {
    for (const table of this.tables) {
      const packed = new Set(
        (await knex(`${META_SCHEMA}.packed_ranges`).select('relation')).map((r: { relation: string }) => r.relation),
      );
      const due = (await partitionRanges(knex, table))
        .filter((r) => r.to <= finalHeight + 1 && !packed.has(`${table.schema}.${r.name}`))
        .sort((a, b) => a.from - b.from)[0];
      if (!due) continue;
      const relation = `${quote(table.schema)}.${quote(due.name)}`;
      // CONCURRENTLY cannot run in a transaction block: a statement of its own.
      await knex.raw(`reindex table ${this.kind === 'postgres' ? 'concurrently ' : ''}${relation}`);
      await knex(`${META_SCHEMA}.packed_ranges`).insert({ relation: `${table.schema}.${due.name}` });
      this.log.info({ range: `${table.schema}.${due.name}` }, 'a final height range was packed (its indexes rebuilt)');
      return `${table.schema}.${due.name}`;
    }
    return undefined;
  }
}
