import { ZERO_TIME } from '../index';
import type { TextRow } from './DexTable';
import type { SidedPool } from './SidedPoolBook';

/**
 * Record fields the two-sided DeFi areas (farms, lending) shape alike: the pool record's identity,
 * the identity every event and position repeats, the transaction of an event and the life of a
 * position. One place, so the SDK's shared field names cannot drift apart between the areas.
 */

/** A pool record's identity, first sighting and each side's token object (`stake_token`, `debt_token`…). */
export function sidedPoolFields<Side extends string>(pool: SidedPool<Side>): Record<string, unknown> {
  const r = pool.row;
  return {
    id: Number(r.row_id),
    pool: pool.address,
    contract: r.contract,
    pool_id: Number(r.pool_id),
    // Null when unknown, never "" (an empty address is no creator).
    creator: r.creator ?? null,
    name: r.name,
    entity: r.entity,
    ...Object.fromEntries(pool.sides.map((side) => [`${side}_token`, pool.token(side)])),
    first_block: Number(r.first_height),
    first_time: r.first_time ?? ZERO_TIME,
    tags: [],
  };
}

/** The head of an event or position: its id, its pool and the pool's identity and side tokens. */
export function sidedRowFields<Side extends string>(r: TextRow, pool: SidedPool<Side>): Record<string, unknown> {
  return {
    id: Number(r.row_id),
    pool: pool.address,
    ...pool.common,
    stake_id: r.stake_id === null ? null : Number(r.stake_id),
  };
}

/** Columns the SDK names as the table does, passed through as their text (amounts stay exact strings). */
export function sameNamed(r: TextRow, columns: readonly string[]): Record<string, string | null> {
  return Object.fromEntries(columns.map((c) => [c, r[c] ?? null]));
}

/** Who took part in an event and the transaction that carried it. */
export function eventTxFields(r: TextRow): Record<string, unknown> {
  return {
    ...sameNamed(r, ['signer', 'sender', 'receiver', 'tx_hash', 'tx_fee']),
    block: Number(r.height),
    time: r.time,
  };
}

/** A position's open and close (close fields left out while open, as the SDK's omitempty). */
export function positionLifeFields(r: TextRow): Record<string, unknown> {
  return {
    is_closed: r.is_closed === 'true',
    open_block: Number(r.open_height),
    open_time: r.open_time,
    ...(r.close_height === null ? {} : { close_block: Number(r.close_height), close_time: r.close_time }),
  };
}

/** An area's event record: the row's head, its own columns passed through, then its transaction. */
export const sidedEventRecord =
  <Side extends string>(columns: readonly string[]) =>
  (r: TextRow, pool: SidedPool<Side>): Record<string, unknown> => ({
    ...sidedRowFields(r, pool),
    ...sameNamed(r, columns),
    ...eventTxFields(r),
  });
