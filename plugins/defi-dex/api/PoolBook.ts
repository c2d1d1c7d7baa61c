import { ApiError, ZERO_TIME } from '../../../framework';
import {
  marginalAmounts,
  parsePoolAddress,
  decimal,
  unitPrice,
  DexTable,
  TextRow,
  TokenBook,
  TokenHint,
  TokenObject,
  UsdPrices,
} from '../../../framework/defi';

export const LEGS = ['a', 'b', 'c', 'd'] as const;
export type Leg = (typeof LEGS)[number];

/** A pool row with its token objects: what every DEX record needs for names, symbols and decimals. */
export class PoolInfo {
  constructor(
    readonly row: TextRow,
    private readonly tokenObjects: ReadonlyMap<string, TokenObject>,
  ) {}

  /** A row's pool that has no pool row (yet): no names, no token objects. */
  static unknown(row: TextRow): PoolInfo {
    return new PoolInfo(
      {
        pool: row.pool,
        contract: row.contract,
        pair_id: row.pair_id,
        entity: row.entity,
        name: '',
        pair: '',
        token_a: null,
        token_b: null,
      },
      new Map(),
    );
  }

  get address(): string {
    return this.row.pool!;
  }

  /** The pool's tokens, A and B always, C and D when the pool has them. */
  get legs(): Leg[] {
    return LEGS.filter((l, i) => i < 2 || (this.row[`token_${l}`] ?? null) !== null);
  }

  tokenKey(leg: Leg | 'lp'): string | null {
    return this.row[`token_${leg}`] ?? null;
  }

  token(leg: Leg | 'lp'): TokenObject | null {
    const key = this.tokenKey(leg);
    return key === null ? null : (this.tokenObjects.get(key) ?? null);
  }

  decimals(leg: Leg | 'lp'): number {
    return this.token(leg)?.decimals ?? 0;
  }

  symbol(leg: Leg | 'lp'): string {
    return this.token(leg)?.symbol ?? '';
  }

  supply(leg: Leg | 'lp'): bigint {
    return BigInt(this.row[`supply_${leg}`] ?? '0');
  }

  /**
   * Marginal price of one whole A in B, 10^18-scaled: from the reserves, or the pool's own marginal amounts
   * (marginal_a/b).
   */
  get price(): bigint {
    const [a, b] = marginalAmounts(this.row);
    return unitPrice(a, this.decimals('a'), b, this.decimals('b'));
  }

  /** USD per whole A, 10^18-scaled, null without prices. */
  priceUsd(usd: UsdPrices): Promise<bigint | null> {
    const a = this.tokenKey('a');
    return a === null ? Promise.resolve(null) : usd.perUnit(a);
  }

  /** Fields every DEX record repeats from its pool. */
  get common(): Record<string, unknown> {
    return {
      contract: this.row.contract,
      pair_id: Number(this.row.pair_id),
      name: this.row.name,
      entity: this.row.entity,
      pair: this.row.pair,
    };
  }

  /** USD value of amounts of the pool's tokens (by leg), 10^18-scaled, null without prices. */
  async value(usd: UsdPrices, amounts: Partial<Record<Leg, bigint>>): Promise<bigint | null> {
    if (this.legs.some((l) => this.tokenKey(l) === null)) return null;
    return usd.value(
      this.legs.map((l) => ({ token: this.tokenKey(l)!, raw: amounts[l] ?? 0n, decimals: this.decimals(l) })),
    );
  }

  /** The SDK's defi.Dex (plus the extra legs C, D of 3- and 4-token pools and the pool address). */
  async record(usd: UsdPrices): Promise<Record<string, unknown>> {
    const r = this.row;
    const extra: Record<string, unknown> = {};
    for (const l of this.legs.slice(2))
      Object.assign(extra, { [`token_${l}`]: this.token(l), [`supply_${l}`]: r[`supply_${l}`] });
    const priceUsd = await this.priceUsd(usd);
    const liquidity = await this.value(usd, Object.fromEntries(this.legs.map((l) => [l, this.supply(l)])));
    return {
      id: Number(r.row_id),
      pool: r.pool,
      ...this.common,
      creator: r.creator ?? '',
      num_tokens: Number(r.num_tokens),
      token_a: this.token('a'),
      token_b: this.token('b'),
      token_lp: this.token('lp'),
      ...extra,
      first_block: Number(r.first_height),
      first_time: r.first_time,
      tags: [],
      supply_a: r.supply_a,
      supply_b: r.supply_b,
      supply_lp: r.supply_lp,
      last_change_block: Number(r.last_change_height),
      last_change_time: r.last_change_time,
      last_trade_time: r.last_trade_time ?? ZERO_TIME,
      num_trades: Number(r.num_trades),
      fees_bps: r.fees_bps,
      price: decimal(this.price),
      price_usd: priceUsd === null ? null : decimal(priceUsd),
      liquidity_usd: liquidity === null ? null : decimal(liquidity),
      num_lps: Number(r.num_lps),
      num_total_lps: Number(r.num_total_lps),
      num_total_users: Number(r.num_total_users),
    };
  }
}

/** Reads pools by address with their tokens. */
export class PoolBook {
  constructor(
    readonly pools: DexTable,
    private readonly tokens: TokenBook,
  ) {}

  /** The pool named in a path (400 when malformed, 404 when unknown). */
  async require(raw: string): Promise<PoolInfo> {
    const address = parsePoolAddress(raw);
    const info = (await this.infos([address])).get(address);
    if (!info) throw ApiError.notFound(`no such pool '${address}'`);
    return info;
  }

  async infos(addresses: Iterable<string>): Promise<Map<string, PoolInfo>> {
    const wanted = [...new Set(addresses)];
    if (wanted.length === 0) return new Map();
    return this.withTokens(await this.pools.read(this.pools.query().whereIn('pool', wanted)));
  }

  async withTokens(rows: readonly TextRow[]): Promise<Map<string, PoolInfo>> {
    const hints = new Map<string, TokenHint>();
    for (const row of rows) {
      const symbols = (row.pair ?? '').split('/');
      LEGS.forEach((l, i) => {
        const key = row[`token_${l}`];
        if (key) hints.set(key, { symbol: symbols[i] ?? '', lp: false });
      });
      if (row.token_lp) hints.set(row.token_lp, { symbol: `${row.pair ?? ''} LP`, lp: true });
    }
    const objects = await this.tokens.objects(hints);
    return new Map(rows.map((row) => [row.pool!, new PoolInfo(row, objects)]));
  }
}
