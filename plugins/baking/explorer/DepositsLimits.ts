import { type Catalog, type Database, selectColumn, type TableDef, whereColumnIn, asRecords } from '../../../framework';

/**
 * The deposits limit each baker set last (Ithaca–Nairobi `set_deposits_limit`, the op table's
 * `deposits_limit`; null when it removed its limit), asked only while the protocol has frozen deposits
 * percentages and no staking: it caps the stake counted for rights there (BakerCapacity).
 */
export class DepositsLimits {
  private readonly ops: TableDef;

  constructor(
    private readonly db: Database,
    catalog: Catalog,
  ) {
    this.ops = catalog.require('op');
  }

  async of(
    bakers: readonly string[],
    constants: Record<string, unknown> | undefined,
  ): Promise<Map<string, bigint | null>> {
    const out = new Map<string, bigint | null>();
    if (
      bakers.length === 0 ||
      constants?.frozen_deposits_percentage === undefined ||
      constants.limit_of_delegation_over_baking !== undefined
    )
      return out;
    const sender = this.ops.column('sender')!;
    const q = this.db.reader
      .withSchema(this.ops.schema)
      .from(this.ops.storage)
      .where({ type: this.ops.column('type')!.type.parse('deposits_limit'), is_success: true });
    const rows = asRecords(
      await whereColumnIn(q, sender, bakers)
        .orderBy([
          { column: 'height', order: 'desc' },
          { column: 'row_id', order: 'desc' },
        ])
        .select(selectColumn(this.db.reader, sender), 'deposits_limit'),
    );
    for (const r of rows)
      if (!out.has(String(r.sender)))
        out.set(String(r.sender), r.deposits_limit === null ? null : BigInt(String(r.deposits_limit).split('.')[0]));
    return out;
  }
}
