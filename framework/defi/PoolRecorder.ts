import type { Entity, EntityStore, IndexContext, Row } from '../index';
import { contractCreator } from './ContractCreator';
import type { DefiOrigin, DefiTokenRef } from './DefiAdapter';
import { DexTokens, tokenKey } from './DexTokens';

/**
 * What the DeFi areas' recorders (the sinks their adapters report to, the only writers of their tables) share:
 * token facts, the pool an adapter reports on, a farm's or market's declaration, the columns events take from
 * their operation and the columns of a position's opening and closing.
 */

/** The identity of a farm or a lending market: `KT1…_poolId` in the API (poolAddress). */
export interface DefiPoolKey {
  readonly contract: string;
  readonly poolId: number;
}

/** What every farm or market declaration carries besides its tokens. */
export interface DefiPoolDecl extends DefiPoolKey {
  /** Protocol family label (`plenty`, `yupana`, …). */
  readonly entity: string;
  /** Signer of the creation when the adapter saw it. */
  readonly creator?: string;
}

export const poolAddress = (k: DefiPoolKey): string => `${k.contract}_${k.poolId}`;

/** The columns an event or position row copies from its farm's or market's row. */
export const poolIdentity = (pool: Entity) => ({
  pool: String(pool.pool),
  contract: String(pool.contract),
  pool_id: Number(pool.pool_id),
  entity: String(pool.entity),
});

/** The columns of an event row that say where it was seen: signer, parties, transaction and block. */
export function seenAt(ctx: IndexContext, origin: DefiOrigin, who: { sender: string; receiver: string }) {
  const outer = origin.match.group.find((o) => o.opC === origin.step.op.opC && o.opI === 0);
  return {
    signer: origin.match.signer ?? who.sender,
    sender: who.sender,
    receiver: who.receiver,
    tx_hash: origin.match.hash,
    tx_fee: outer?.fee ?? 0n,
    height: ctx.block.level,
    time: new Date(ctx.block.time),
  };
}

/** A position's life columns when it opens at this block. */
export const openedAt = (ctx: IndexContext) => ({
  is_closed: false,
  open_height: ctx.block.level,
  open_time: new Date(ctx.block.time),
  close_height: null,
  close_time: null,
});

/** A position's life columns when it closes at this block. */
export const closedAt = (ctx: IndexContext) => ({
  is_closed: true,
  close_height: ctx.block.level,
  close_time: new Date(ctx.block.time),
});

/** The base of an area's recorder; `area` names the plugin and what its pools are called (names, errors). */
export abstract class PoolRecorder {
  protected readonly tokens = new DexTokens();
  protected abstract readonly area: { readonly plugin: string; readonly noun: string };

  /** The pool row an adapter reports `what` on; one it has not declared first is an adapter bug, thrown. */
  protected async known<R extends Row>(store: EntityStore<R, 'pool'>, address: string, what: string): Promise<Entity> {
    const row = await store.get(address);
    if (row) return row;
    const { plugin, noun } = this.area;
    throw new Error(`${plugin}: ${what} on undeclared ${noun} ${address} (adapters declare ${noun}s first)`);
  }

  /**
   * Declares a farm or market with its two tokens by side (`stake`, `reward`: the `<side>_token` columns; its name
   * from the first) and its `columns` now: they replace the row's when it is known, else it is created with them,
   * its first-seen columns and `opening` (its counters and what only its creation sets).
   */
  protected async declare<R extends Row>(
    ctx: IndexContext,
    store: EntityStore<R, 'pool'>,
    decl: DefiPoolDecl,
    sides: Readonly<Record<string, DefiTokenRef>>,
    columns: Partial<R>,
    opening: Partial<R>,
  ): Promise<void> {
    const facts = await this.tokens.facts(ctx, Object.values(sides).map(tokenKey));
    const declared = {
      entity: decl.entity,
      name: `${decl.entity} ${facts[0].symbol} ${this.area.noun}`,
      ...Object.fromEntries(Object.keys(sides).map((side, i) => [`${side}_token`, facts[i].key])),
      ...columns,
      update_height: ctx.block.level,
    };
    const address = poolAddress(decl);
    const row = await store.get(address);
    if (row) return store.update(row, declared as Partial<Omit<R, 'pool'>>);
    store.insert({
      pool: address,
      contract: decl.contract,
      pool_id: decl.poolId,
      creator: decl.creator ?? (await contractCreator(ctx, decl.contract)),
      first_height: ctx.block.level,
      first_time: new Date(ctx.block.time),
      ...opening,
      ...declared,
    } as unknown as Parameters<typeof store.insert>[0]);
  }
}

/** An action an adapter reports on a pool it declared: the pool's row and table, the action, the supply after it. */
export interface ReportedAction<R extends Row, A, S> {
  readonly pools: EntityStore<R, 'pool'>;
  readonly pool: Entity;
  readonly action: A;
  readonly supply: S;
  readonly origin: DefiOrigin;
}

/**
 * The recorder of an area whose sink's `action` is one action on a declared farm or market (`DefiPoolKey`): finds
 * the pool's row (one not declared first is thrown, as `known`) and has the area `record` it.
 */
export abstract class ActionRecorder<R extends Row, A, S> extends PoolRecorder {
  /** The area's pool table. */
  protected abstract pools(ctx: IndexContext): EntityStore<R, 'pool'>;
  /** Records one action on its pool's row, in the area's event and position tables. */
  protected abstract record(ctx: IndexContext, reported: ReportedAction<R, A, S>): Promise<void>;

  async action(ctx: IndexContext, key: DefiPoolKey, action: A, supply: S, origin: DefiOrigin): Promise<void> {
    const pools = this.pools(ctx);
    const pool = await this.known(pools, poolAddress(key), 'action');
    await this.record(ctx, { pools, pool, action, supply, origin });
  }
}
