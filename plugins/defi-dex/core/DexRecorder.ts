import {
  bigOrZero,
  type Catalog,
  carriedKey,
  sharedKey,
  type Entity,
  type EntityStore,
  type IndexContext,
} from '../../../framework';
import {
  closedAt,
  decimal,
  isqrt,
  openedAt,
  PoolRecorder,
  positionKey,
  scaled,
  seenAt,
  tokenKey,
  UsdPrices,
} from '../../../framework/defi';
import { tables, type DexPoolRow } from '../tables.generated';
import type {
  DexAction,
  DexOrigin,
  DexPoolDecl,
  DexPoolKey,
  DexShareTransfer,
  DexSink,
  DexSupply,
  DexTradeAction,
} from './DexAdapter';
import { RecordUsdQuotes } from './RecordUsdQuotes';
import { TradeFigures, tradeFigures } from './TradeFigures';

const LEGS = ['a', 'b', 'c', 'd'] as const;
type DexEventType = DexAction['kind'] | 'create' | 'transfer';
const E36 = 10n ** 36n;
/** Per block: `pool signer` → sides traded, for the wash-trade flag. */
const TRADED = sharedKey<Map<string, Set<string>>>('defi-dex.traded');
/**
 * Who used which pool (num_total_users), carried from batch to batch so an active user costs one event
 * query per run, not one per batch; bounded (a cache: the events are the truth). `seen`: `pool account`
 * pairs known to have used a pool. `complete`: pools this run created since `seen` was last emptied,
 * whose every event it recorded, so an account not in `seen` is new to them without asking the table
 * (a backfill asked one query per new user; it now asks none for the pools it finds).
 */
const USERS = carriedKey('defi-dex.users', () => ({ seen: new Set<string>(), complete: new Set<string>() }));
const MAX_USERS = 500_000;
/** The events that make an account a pool's user: it traded or provided liquidity (num_total_users). */
const USER_EVENTS: readonly DexEventType[] = ['trade', 'deposit', 'withdraw'];

export const poolAddress = (p: DexPoolKey): string => `${p.contract}_${p.pairId}`;

/**
 * The core's DexSink: turns what adapters report into dex_pool, dex_event, dex_trade and
 * dex_position rows, through ctx.append/ctx.entities only (so rollback needs no code here). USD
 * columns stay null until a UsdQuotes implementation is wired (docs/defi-dex.md).
 */
export class DexRecorder extends PoolRecorder implements DexSink {
  static readonly integers = { pool: [1, 2], action: [2, 3], adjust: [2], transfer: [2], firstLiquidity: [3] };
  protected readonly area = { plugin: 'defi-dex', noun: 'pool' };

  /** The codes of USER_EVENTS in dex_event's `event_type` column. */
  private readonly userEvents: number[];

  /** `has` tells which optional tables (markets, metadata) the instance has, for USD quotes. */
  constructor(
    private readonly has: (code: string) => boolean,
    catalog: Catalog,
  ) {
    super();
    const type = catalog.require(tables.dex_event.code).column('event_type')!.type;
    this.userEvents = USER_EVENTS.map((e) => Number(type.parse(e)));
  }

  async knows(ctx: IndexContext, pool: DexPoolKey): Promise<boolean> {
    return (await this.pools(ctx).get(poolAddress(pool))) !== undefined;
  }

  async pool(ctx: IndexContext, decl: DexPoolDecl, supply: DexSupply, origin?: DexOrigin): Promise<void> {
    const pools = this.pools(ctx);
    const address = poolAddress(decl);
    const facts = await this.tokens.facts(ctx, decl.tokens.map(tokenKey));
    const row = await pools.get(address);
    const symbols = facts.map((f) => f.symbol).join('/');
    const declared = {
      entity: decl.entity,
      name: `${decl.entity} ${symbols}`,
      pair: symbols,
      num_tokens: decl.tokens.length,
      // A pool has two tokens at least; c and d are null beyond its own.
      token_a: tokenKey(decl.tokens[0]),
      token_b: tokenKey(decl.tokens[1]),
      token_c: decl.tokens[2] ? tokenKey(decl.tokens[2]) : null,
      token_d: decl.tokens[3] ? tokenKey(decl.tokens[3]) : null,
      token_lp: decl.lp ? tokenKey(decl.lp) : null,
      fees_bps: supply.feesBps ?? decl.feesBps,
      ...supplies(supply),
      update_height: ctx.block.level,
    };
    if (row) {
      pools.update(row, declared);
      return;
    }
    const time = new Date(ctx.block.time);
    pools.insert({
      pool: address,
      contract: decl.contract,
      pair_id: decl.pairId,
      creator: decl.creator ?? null,
      first_height: ctx.block.level,
      first_time: time,
      last_change_height: ctx.block.level,
      last_change_time: time,
      last_trade_time: null,
      num_trades: 0,
      num_lps: 0,
      num_total_lps: 0,
      num_total_users: 0,
      ...declared,
    });
    ctx.state.get(USERS).complete.add(address);
    if (origin)
      this.event(
        ctx,
        { pool: address, contract: decl.contract, pair_id: decl.pairId, entity: decl.entity },
        'create',
        supply.reserves.map(() => 0n),
        0n,
        supply,
        origin,
        { sender: origin.match.signer ?? decl.contract, receiver: decl.contract },
      );
  }

  async action(
    ctx: IndexContext,
    key: DexPoolKey,
    action: DexAction,
    supply: DexSupply,
    origin: DexOrigin,
  ): Promise<void> {
    const pools = this.pools(ctx);
    const pool = await this.known(pools, poolAddress(key), 'action');
    const before = currentSupply(pool);
    const patch: Record<string, unknown> = {
      ...supplies(supply),
      update_height: ctx.block.level,
      last_change_height: ctx.block.level,
      last_change_time: new Date(ctx.block.time),
    };
    if (supply.feesBps) patch.fees_bps = supply.feesBps;
    const volumes =
      action.kind === 'trade'
        ? supply.reserves.map((_r, i) =>
            i === action.tokenIn ? action.amountIn : i === action.tokenOut ? action.amountOut : 0n,
          )
        : action.amounts.map((v) => (v < 0n ? -v : v));
    const lp = action.kind === 'deposit' || action.kind === 'withdraw' ? action.shares : 0n;
    const facts = await this.tokens.facts(
      ctx,
      LEGS.slice(0, supply.reserves.length).map((l) => String(pool[`token_${l}`])),
    );
    const usd = new UsdPrices(new RecordUsdQuotes(ctx, this.has, this.tokens), new Date(ctx.block.time));
    const worth = (amounts: readonly (bigint | undefined)[]) =>
      usd.value(amounts.flatMap((raw, i) => (raw ? [{ token: facts[i].key, raw, decimals: facts[i].decimals }] : [])));
    // A trade is worth what went in; liquidity moves and claims what moved on every side.
    const value = await worth(
      action.kind === 'trade' ? volumes.map((v, i) => (i === action.tokenIn ? v : 0n)) : volumes,
    );
    this.event(ctx, pool, action.kind, volumes, lp, supply, origin, action, value);
    if (action.kind === 'trade') {
      const numTrades = bigOrZero(pool.num_trades) + 1n;
      patch.num_trades = numTrades;
      patch.last_trade_time = new Date(ctx.block.time);
      const f = tradeFigures(
        action,
        priceBasis(before),
        priceBasis(supply),
        facts.map((x) => x.decimals),
      );
      const fees = Object.values(action.fees).filter((x) => x !== undefined);
      const money = {
        price: await usd.perUnit(facts[f.base].key),
        volume: await worth(volumes.map((v, i) => (i === f.quote ? v : 0n))),
        fees: await usd.value(
          fees.map((x) => ({ token: facts[x.token].key, raw: x.amount, decimals: facts[x.token].decimals })),
        ),
      };
      this.trade(ctx, pool, action, f, origin, numTrades, money);
    }
    if (action.kind === 'deposit' || action.kind === 'withdraw') {
      const side = action.kind === 'deposit' ? 'deposited' : 'withdrawn';
      const valued = action.kind === 'deposit' ? 'open_value_usd' : 'close_value_usd';
      const lps = await this.moveShares(
        ctx,
        pool,
        action.owner,
        action.kind === 'deposit' ? action.shares : -action.shares,
        action.kind === 'deposit' ? 'shares_minted' : 'shares_burned',
        supply,
        (p) => ({
          ...Object.fromEntries(
            action.amounts.map((v, i) => [`${side}_${LEGS[i]}`, bigOrZero(p[`${side}_${LEGS[i]}`]) + v]),
          ),
          [valued]: cumulativeUsd(
            p[valued],
            bigOrZero(p[action.kind === 'deposit' ? 'shares_minted' : 'shares_burned']) > 0n,
            value,
          ),
        }),
      );
      patch.num_lps = bigOrZero(pool.num_lps) + lps.opened - lps.closed;
      patch.num_total_lps = bigOrZero(pool.num_total_lps) + lps.created;
    }
    if (USER_EVENTS.includes(action.kind) && (await this.newUser(ctx, pool, action.sender)))
      patch.num_total_users = bigOrZero(pool.num_total_users) + 1n;
    pools.update(pool, patch);
  }

  async supply(ctx: IndexContext, key: DexPoolKey): Promise<DexSupply | undefined> {
    const pool = await this.pools(ctx).get(poolAddress(key));
    return pool ? currentSupply(pool) : undefined;
  }

  async adjust(ctx: IndexContext, key: DexPoolKey, supply: DexSupply): Promise<void> {
    const pools = this.pools(ctx);
    const pool = await pools.get(poolAddress(key));
    if (pool)
      pools.update(pool, {
        ...supplies(supply),
        update_height: ctx.block.level,
        last_change_height: ctx.block.level,
        last_change_time: new Date(ctx.block.time),
      });
  }

  async transfer(ctx: IndexContext, key: DexPoolKey, t: DexShareTransfer, origin: DexOrigin): Promise<void> {
    const pools = this.pools(ctx);
    const pool = await pools.get(poolAddress(key));
    if (!pool || t.shares === 0n || t.from === t.to) return;
    const supply = currentSupply(pool);
    this.event(
      ctx,
      pool,
      'transfer',
      supply.reserves.map(() => 0n),
      t.shares,
      supply,
      origin,
      { sender: t.from, receiver: t.to },
    );
    const out = await this.moveShares(ctx, pool, t.from, -t.shares, 'shares_sent', supply);
    const into = await this.moveShares(ctx, pool, t.to, t.shares, 'shares_received', supply);
    pools.update(pool, {
      num_lps: bigOrZero(pool.num_lps) + out.opened + into.opened - out.closed - into.closed,
      num_total_lps: bigOrZero(pool.num_total_lps) + out.created + into.created,
      update_height: ctx.block.level,
    });
  }

  async firstLiquidity(ctx: IndexContext, key: DexPoolKey, owner: string, shares: bigint): Promise<void> {
    const pools = this.pools(ctx);
    const pool = await pools.get(poolAddress(key));
    if (!pool || shares <= 0n) return;
    const supply = currentSupply(pool);
    const part = (reserve: bigint) => (supply.lpSupply > 0n ? (reserve * shares) / supply.lpSupply : 0n);
    const deposited = (p: Entity) =>
      Object.fromEntries(
        supply.reserves.map((r, i) => [`deposited_${LEGS[i]}`, bigOrZero(p[`deposited_${LEGS[i]}`]) + part(r)]),
      );
    const lps = await this.moveShares(ctx, pool, owner, shares, 'shares_minted', supply, deposited);
    pools.update(pool, {
      num_lps: bigOrZero(pool.num_lps) + lps.opened - lps.closed,
      num_total_lps: bigOrZero(pool.num_total_lps) + lps.created,
      update_height: ctx.block.level,
    });
  }

  private pools(ctx: IndexContext): EntityStore<DexPoolRow, 'pool'> {
    return ctx.entities(tables.dex_pool, 'pool');
  }

  private event(
    ctx: IndexContext,
    pool: Readonly<Record<string, unknown>>,
    type: DexEventType,
    volumes: readonly bigint[],
    lp: bigint,
    supply: DexSupply,
    origin: DexOrigin,
    who: { sender: string; receiver: string; router?: string },
    value: bigint | null = null,
  ): void {
    ctx.append(tables.dex_event, {
      pool: String(pool.pool),
      contract: String(pool.contract),
      pair_id: Number(pool.pair_id),
      entity: String(pool.entity),
      event_type: type,
      ...legs('volume', volumes),
      volume_lp: lp,
      ...supplies(supply),
      value_usd: value === null ? null : decimal(value),
      ...this.tx(ctx, origin, who),
    });
  }

  private trade(
    ctx: IndexContext,
    pool: Entity,
    t: DexTradeAction,
    f: TradeFigures,
    origin: DexOrigin,
    counter: bigint,
    money: { price: bigint | null; volume: bigint | null; fees: bigint | null },
  ): void {
    const key = `${pool.pool} ${origin.match.signer ?? t.sender}`;
    let traded = ctx.shared.get(TRADED);
    if (!traded) ctx.shared.set(TRADED, (traded = new Map()));
    let sides = traded.get(key);
    if (!sides) traded.set(key, (sides = new Set()));
    sides.add(f.side);
    const fee = (name: string, v: DexTradeAction['fees']['lp']) => ({
      [name]: v?.amount ?? null,
      [`${name}_bps`]: v?.bps ?? null,
      [`${name}_token`]: v?.token ?? null,
    });
    ctx.append(tables.dex_trade, {
      pool: String(pool.pool),
      contract: String(pool.contract),
      pair_id: Number(pool.pair_id),
      entity: String(pool.entity),
      counter,
      side: f.side,
      base_token: f.base,
      quote_token: f.quote,
      base_volume: f.baseVolume,
      quote_volume: f.quoteVolume,
      ...fee('lp_fee', t.fees.lp),
      ...fee('dev_fee', t.fees.dev),
      ...fee('referral_fee', t.fees.referral),
      ...fee('incentive_fee', t.fees.incentive),
      ...fee('burn', t.fees.burn),
      price_net: f.priceNet,
      price_gross: f.priceGross,
      price_before: f.priceBefore,
      price_after: f.priceAfter,
      price_delta_bps: f.deltaBps,
      price_impact_bps: f.impactBps,
      // The later trade of a both-ways pair by one signer in one block (the earlier row is already written).
      is_wash_trade: sides.size > 1,
      price_usd: money.price === null ? null : decimal(money.price),
      fees_usd: money.fees === null ? null : decimal(money.fees),
      volume_usd: money.volume === null ? null : decimal(money.volume),
      ...this.tx(ctx, origin, t),
    });
  }

  private tx(ctx: IndexContext, origin: DexOrigin, who: { sender: string; receiver: string; router?: string }) {
    return { ...seenAt(ctx, origin, who), router: who.router ?? null };
  }

  /**
   * Adds `delta` shares to an owner's position (creating or reopening it), with the counter column
   * and extra patch; tells whether the position was created, opened or closed by it.
   */
  private async moveShares(
    ctx: IndexContext,
    pool: Entity,
    owner: string,
    delta: bigint,
    counter: string,
    supply: DexSupply,
    extra: (p: Entity) => Record<string, unknown> = () => ({}),
  ) {
    const positions = ctx.entities(tables.dex_position, 'position');
    const key = positionKey(String(pool.pool), owner);
    let p = await positions.get(key);
    let created = 0n;
    const time = new Date(ctx.block.time);
    if (!p) {
      created = 1n;
      p = positions.insert({
        pool: String(pool.pool),
        contract: String(pool.contract),
        pair_id: Number(pool.pair_id),
        entity: String(pool.entity),
        position: key,
        owner,
        shares: 0n,
        shares_minted: 0n,
        shares_burned: 0n,
        shares_sent: 0n,
        shares_received: 0n,
        ...legs(
          'deposited',
          supply.reserves.map(() => 0n),
        ),
        ...legs(
          'withdrawn',
          supply.reserves.map(() => 0n),
        ),
        open_value_usd: null,
        close_value_usd: null,
        growth_entry: null,
        is_closed: true,
        open_height: ctx.block.level,
        open_time: time,
        close_height: null,
        close_time: null,
        update_height: ctx.block.level,
      });
    }
    const was = bigOrZero(p.shares);
    const now = was + delta;
    const magnitude = delta < 0n ? -delta : delta;
    const patch: Record<string, unknown> = {
      ...extra(p),
      shares: now,
      [counter]: bigOrZero(p[counter]) + magnitude,
      update_height: ctx.block.level,
    };
    const opened = was <= 0n && now > 0n;
    const closed = was > 0n && now <= 0n;
    if (opened) Object.assign(patch, openedAt(ctx));
    // A position that ends a move empty is closed then, also one created empty (a call that minted nothing to it).
    if (closed || (now <= 0n && p.close_height == null)) Object.assign(patch, closedAt(ctx));
    // Fee income is measured from the share-weighted entry growth of √(A·B)/S (two-token pools).
    if (delta > 0n && supply.reserves.length === 2 && supply.lpSupply > 0n) {
      const growth = isqrt(supply.reserves[0] * supply.reserves[1] * E36) / supply.lpSupply;
      const entry = was > 0n && p.growth_entry !== null ? scaled(String(p.growth_entry)) : growth;
      patch.growth_entry = decimal(was > 0n ? (entry * was + growth * delta) / now : growth);
    }
    positions.update(p, patch);
    return { created, opened: opened ? 1n : 0n, closed: closed ? 1n : 0n };
  }

  /** Whether `account` uses the pool for the first time (a cache over the flushed events). */
  private async newUser(ctx: IndexContext, pool: Entity, account: string): Promise<boolean> {
    const users = ctx.state.get(USERS);
    const key = `${pool.pool} ${account}`;
    if (users.seen.has(key)) return false;
    if (users.seen.size >= MAX_USERS) {
      users.seen.clear();
      users.complete.clear();
    }
    users.seen.add(key);
    if (users.complete.has(String(pool.pool))) return true;
    const seen = await ctx
      .read(tables.dex_event)
      .where({ pool: String(pool.pool), sender: account })
      .whereIn('event_type', this.userEvents)
      .first('row_id');
    return !seen;
  }
}

/** A cumulative USD column plus one more event's value: unknown (null) once any part was unknown. */
function cumulativeUsd(prior: unknown, hadEvents: boolean, value: bigint | null): string | null {
  if (value === null || (prior === null && hadEvents)) return null;
  return decimal((prior === null || prior === undefined ? 0n : scaled(String(prior))) + value);
}

function currentSupply(pool: Entity): DexSupply {
  const reserves = LEGS.slice(0, Number(pool.num_tokens)).map((l) => bigOrZero(pool[`supply_${l}`]));
  const marginal =
    pool.marginal_a == null || pool.marginal_b == null
      ? undefined
      : ([bigOrZero(pool.marginal_a), bigOrZero(pool.marginal_b)] as const);
  return { reserves, lpSupply: bigOrZero(pool.supply_lp), ...(marginal ? { marginal } : {}) };
}

/** The amounts per token whose ratios are the pool's marginal prices: the reserves, or A and B of `marginal`. */
function priceBasis(s: DexSupply): readonly bigint[] {
  return s.marginal ? [s.marginal[0], s.marginal[1], ...s.reserves.slice(2)] : s.reserves;
}

type Legs<P extends string> = { [K in `${P}_a` | `${P}_b`]: bigint } & { [K in `${P}_c` | `${P}_d`]: bigint | null };

/** Per-token columns `<prefix>_a…d`: a and b always set (0 when absent), c and d null beyond the pool's tokens. */
function legs<P extends string>(prefix: P, values: readonly bigint[]): Legs<P> {
  return Object.fromEntries(
    LEGS.map((l, i) => [`${prefix}_${l}`, i < values.length ? values[i] : i < 2 ? 0n : null]),
  ) as Legs<P>;
}

function supplies(
  s: DexSupply,
): Legs<'supply'> & { supply_lp: bigint; marginal_a: bigint | null; marginal_b: bigint | null } {
  return {
    ...legs('supply', s.reserves),
    supply_lp: s.lpSupply,
    marginal_a: s.marginal?.[0] ?? null,
    marginal_b: s.marginal?.[1] ?? null,
  };
}
