import type { Catalog, Database } from '../../../framework';
import { snapshotEra } from '../SnapshotEra';
import { newestConstants } from './NewestConstants';

/**
 * Cycles between a stake snapshot and the cycle whose rights it gives (SnapshotEra: preserved_cycles
 * + 2 for Emmy, consensus_rights_delay or preserved_cycles + 1 later), from the newest protocol's
 * constants; undefined when they are unknown.
 */
export async function snapshotLag(db: Database, catalog: Catalog): Promise<number | undefined> {
  return snapshotEra(await newestConstants(db, catalog))?.lag;
}
