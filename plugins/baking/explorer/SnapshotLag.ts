import type { Catalog, Database } from '../../../framework';
import { snapshotEra } from '../SnapshotEra';

/**
 * Cycles between a stake snapshot and the cycle whose rights it gives (SnapshotEra: preserved_cycles
 * + 2 for Emmy, consensus_rights_delay or preserved_cycles + 1 later), from the newest protocol's
 * constants; undefined when they are unknown.
 */
export async function snapshotLag(db: Database, catalog: Catalog): Promise<number | undefined> {
  const t = catalog.require('protocol');
  const row: Record<string, unknown> | undefined = await db.reader.withSchema(t.schema).from(t.storage).orderBy('height', 'desc').first('constants');
  const raw = row?.constants;
  const constants = (typeof raw === 'string' ? JSON.parse(raw) : raw) as Record<string, unknown> | undefined;
  return snapshotEra(constants)?.lag;
}
