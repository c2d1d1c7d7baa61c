import { type Catalog, type Database, type ExplorerRow, type TableDef, asRecord, asRecords } from '../../../framework';

/**
 * What the node told of each baker at the newest stake snapshot (the last snapshot block): grace
 * period, consensus key, staking parameters and baking power, with its share of all bakers' power.
 * A registered baker missing from that snapshot was deactivated (`is_active` false). Without
 * snapshots (no protocol constants) nothing: the object keeps its nulls.
 */
export class BakerState {
  private readonly snapshot: TableDef;

  constructor(
    private readonly db: Database,
    catalog: Catalog,
  ) {
    this.snapshot = catalog.require('snapshot');
  }

  async of(bakers: readonly string[]): Promise<Map<string, ExplorerRow>> {
    const out = new Map<string, ExplorerRow>();
    const from = () => this.db.reader.withSchema(this.snapshot.schema).from(this.snapshot.storage);
    const newest = asRecord(await from().where('is_baker', true).max({ height: 'height' }).first());
    if (bakers.length === 0 || newest?.height === null || newest?.height === undefined) return out;
    const height = Number(newest.height);
    const [rows, total] = await Promise.all([
      from()
        .where({ height, is_baker: true })
        .whereIn('address', [...bakers])
        .select(
          'address',
          'active_stake',
          'grace_period',
          'consensus_key',
          'consensus_address',
          'staking_limit',
          'staking_edge',
        )
        .then(asRecords),
      from().where({ height, is_baker: true }).sum({ power: 'active_stake' }).first().then(asRecord),
    ]);
    const all = total?.power === null || total?.power === undefined ? 0n : BigInt(String(total.power).split('.')[0]);
    for (const b of bakers) out.set(b, { is_active: false });
    for (const r of rows) {
      const power = r.active_stake === null ? null : BigInt(String(r.active_stake).split('.')[0]);
      const int = (v: unknown) => (v === null || v === undefined ? null : Number(v));
      out.set(String(r.address), {
        is_active: true,
        grace_period: int(r.grace_period),
        consensus_key: r.consensus_key ?? null,
        consensus_address: r.consensus_address ?? null,
        staking_limit: int(r.staking_limit),
        staking_edge: int(r.staking_edge),
        baking_power: power === null ? null : Number(power),
        network_share: power === null || all === 0n ? null : Number((power * 1_000_000n) / all) / 1_000_000,
      });
    }
    return out;
  }
}
