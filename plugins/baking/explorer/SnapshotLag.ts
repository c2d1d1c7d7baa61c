import type { Catalog, Database } from '../../../framework';
import { newestConstants } from './NewestConstants';

/**
 * Cycles between a stake snapshot and the cycle whose rights it gives: consensus_rights_delay (or
 * preserved_cycles) + 1, from the newest protocol's constants; undefined when they are unknown.
 */
export async function snapshotLag(db: Database, catalog: Catalog): Promise<number | undefined> {
  const constants = await newestConstants(db, catalog);
  const delay = constants?.consensus_rights_delay ?? constants?.preserved_cycles;
  return delay === undefined ? undefined : Number(delay) + 1;
}
