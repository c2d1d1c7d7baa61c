import { ApiError, parseAddress } from '../index';

/** An owner's position in a pool: the key of the dex, farm and lending position tables (and of their read-ahead). */
export const positionKey = (pool: string, owner: string): string => `${pool}:${owner}`;

const POOL_ID = /^(KT1[1-9A-HJ-NP-Za-km-z]{33})_(\d{1,9})$/;

/** A `{pool}` path segment: `KT1…_pairId`, else 400. */
export function parsePoolAddress(raw: string): string {
  const m = POOL_ID.exec(raw);
  if (!m) throw ApiError.malformedId(`invalid pool '${raw}': expected <contract>_<pair id>`);
  return `${parseAddress(m[1])}_${Number(m[2])}`;
}
