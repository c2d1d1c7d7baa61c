import { type Catalog, type Database, asRecord } from '../../../framework';

/** The node's constants of the newest protocol indexed (the head's); undefined before any. */
export async function newestConstants(db: Database, catalog: Catalog): Promise<Record<string, unknown> | undefined> {
  const t = catalog.require('protocol');
  const row: Record<string, unknown> | undefined = await db.reader
    .withSchema(t.schema)
    .from(t.storage)
    .orderBy('height', 'desc')
    .first('constants');
  const raw = row?.constants;
  return asRecord(typeof raw === 'string' ? JSON.parse(raw) : raw);
}
