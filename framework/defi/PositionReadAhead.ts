import type { BlocksStartContext, NormalizedBlock, TableHandle } from '../index';
import { positionKey } from './PositionKey';

/** A DeFi plugin's pool and position tables: pools keyed `pool` with their `contract`, positions by `positionKey`. */
export interface PositionTables {
  readonly pools: TableHandle<unknown> | string;
  readonly positions: TableHandle<unknown> | string;
}

/**
 * Reads ahead what a batch's DeFi handlers would look up one row at a time: the pools of every
 * contract the batch's applied calls reach, and in those pools the positions of the accounts that
 * signed or sent the calls. Why: each lookup that misses the entity cache is a round trip to the
 * database, and a catch-up batch over a busy DeFi era makes hundreds of them one after another (a
 * new position misses too: only a query tells it is new). Owners found elsewhere by a decoder (an
 * LP transfer's recipient, a lending stake id) are still looked up when asked.
 */
export async function readAheadPositions(
  blocks: readonly NormalizedBlock[],
  ctx: BlocksStartContext,
  tables: PositionTables,
): Promise<void> {
  const owners = callersByContract(blocks);
  if (owners.size === 0) return;
  const pools: { pool: string; contract: string }[] = await ctx
    .read(tables.pools)
    .whereIn('contract', [...owners.keys()])
    .select('pool', 'contract');
  if (pools.length === 0) return;
  await ctx.preload(
    tables.pools,
    'pool',
    pools.map((p) => p.pool),
  );
  const byContract = new Map<string, string[]>();
  for (const p of pools) {
    const ids = byContract.get(p.contract);
    if (ids) ids.push(p.pool);
    else byContract.set(p.contract, [p.pool]);
  }
  const keys: string[] = [];
  for (const [contract, ids] of byContract) {
    const callers = owners.get(contract)!;
    // A contract of many pools (a DEX core of hundreds of pairs) called by many accounts would make
    // a key for every pair; its calls name the pair, which only the adapter decodes: left to lookups.
    if (ids.length * callers.size > MAX_KEYS_PER_CONTRACT) continue;
    for (const pool of ids) for (const owner of callers) keys.push(positionKey(pool, owner));
  }
  await ctx.preload(tables.positions, 'position', keys);
}

/**
 * The accounts that signed or sent the batch's applied calls, by called contract. The dex, farm and
 * lending plugins each read ahead from the same batch (the same array): it is scanned once, not three times.
 */
const callers = new WeakMap<readonly NormalizedBlock[], Map<string, Set<string>>>();
function callersByContract(blocks: readonly NormalizedBlock[]): Map<string, Set<string>> {
  let owners = callers.get(blocks);
  if (owners) return owners;
  owners = new Map();
  for (const block of blocks) {
    for (const op of block.operations) {
      if (
        op.status !== 'applied' ||
        op.type !== 'transaction' ||
        op.receiver === undefined ||
        !op.receiver.startsWith('KT1')
      )
        continue;
      let set = owners.get(op.receiver);
      if (!set) owners.set(op.receiver, (set = new Set()));
      if (op.source !== undefined) set.add(op.source);
      if (op.sender !== undefined) set.add(op.sender);
    }
  }
  callers.set(blocks, owners);
  return owners;
}

/** Position keys read ahead for one contract at most (pools × callers). */
export const MAX_KEYS_PER_CONTRACT = 2_000;
