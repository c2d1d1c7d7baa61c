import { ApiError } from '../index';
import { decimal } from './Decimal';
import type { DexTable, TextRow } from './DexTable';
import { parsePoolAddress } from './PositionKey';
import { TEZ, type TokenBook, type TokenObject } from './TokenBook';
import type { UsdPrices } from './UsdPrices';

/**
 * Tez where the SDK decodes a token address (tzgo's tezos.Token, which needs a KT1): tzgo's ZeroToken,
 * the zero contract hash with id 0, which tzgo names the placeholder for tez. It decodes to the same
 * value as the DEX's tez token object (`contract` empty, `token_id` 0).
 */
export const TEZ_TOKEN_ADDRESS = 'KT18amZmM5W7qDWVt2pH6uj7sCEd3kbzLrHT_0';

/**
 * A pool row of an area whose pools name two tokens by side (farms: stake and reward; lending:
 * debt and collateral), with its token objects: what every record of the area needs for names,
 * symbols and decimals.
 */
export class SidedPool<Side extends string> {
  constructor(
    readonly row: TextRow,
    readonly sides: readonly Side[],
    private readonly tokens: ReadonlyMap<string, TokenObject>,
  ) {}

  get address(): string {
    return this.row.pool!;
  }

  /** The token object as these areas show it: `contract`, no `ledger` (spec: farm and lending token objects). */
  token(side: Side): Omit<TokenObject, 'ledger'> | null {
    const t = this.tokens.get(this.row[`${side}_token`] ?? '');
    if (!t) return null;
    const { ledger: _ledger, ...rest } = t;
    return rest;
  }

  /**
   * USD value (fixed, 18 decimals) of a raw amount of one side's token at the prices of `usd`; null
   * when the amount is unknown, the token unknown (a row without its pool row: no decimals) or
   * without a price path (never 0 for a missing price).
   */
  private async valueUsd(usd: UsdPrices, side: Side, raw: string | null): Promise<string | null> {
    const key = this.row[`${side}_token`];
    const token = this.token(side);
    if (raw === null || !key || !token) return null;
    const v = await usd.value([{ token: key, raw: BigInt(raw), decimals: token.decimals }]);
    return v === null ? null : decimal(v);
  }

  /** Several USD fields at once: each field's side and raw amount (`{ value_usd: ['stake', balance] }`). */
  async valuesUsd(
    usd: UsdPrices,
    fields: Record<string, [Side, string | null]>,
  ): Promise<Record<string, string | null>> {
    const entries = Object.entries(fields);
    const values = await Promise.all(entries.map(([, [side, raw]]) => this.valueUsd(usd, side, raw)));
    return Object.fromEntries(entries.map(([name], i) => [name, values[i]]));
  }

  /** Fields every event and position repeats: identity and each side's token as address, symbol, decimals. */
  get common(): Record<string, unknown> {
    const r = this.row;
    const out: Record<string, unknown> = {
      contract: r.contract,
      pool_id: Number(r.pool_id),
      name: r.name,
      entity: r.entity,
    };
    for (const side of this.sides) {
      out[`${side}_token`] = r[`${side}_token`] === TEZ ? TEZ_TOKEN_ADDRESS : r[`${side}_token`];
      out[`${side}_symbol`] = this.token(side)?.symbol ?? '';
      out[`${side}_decimals`] = this.token(side)?.decimals ?? 0;
    }
    return out;
  }
}

/** Reads an area's pools by address with their tokens. */
export class SidedPoolBook<Side extends string> {
  constructor(
    readonly table: DexTable,
    private readonly tokens: TokenBook,
    private readonly sides: readonly Side[],
    /** The pool's name in errors (`farm`, `lending pool`). */
    private readonly noun: string,
    /** Columns a pool row without a pool row shows besides its identity (e.g. a zero total). */
    private readonly blank: TextRow = {},
  ) {}

  /** What a row whose pool has no pool row shows: no names, no token objects. */
  unknown(row: TextRow): SidedPool<Side> {
    const identity: TextRow = {
      pool: row.pool,
      contract: row.contract,
      pool_id: row.pool_id,
      entity: row.entity,
      name: '',
      ...this.blank,
    };
    for (const side of this.sides) identity[`${side}_token`] = row[`${side}_token`];
    return new SidedPool(identity, this.sides, new Map());
  }

  /** The pool named in a path (400 when malformed, 404 when unknown). */
  async require(raw: string): Promise<SidedPool<Side>> {
    const address = parsePoolAddress(raw);
    const info = (await this.infos([address])).get(address);
    if (!info) throw ApiError.notFound(`no such ${this.noun} '${address}'`);
    return info;
  }

  async infos(addresses: Iterable<string>): Promise<Map<string, SidedPool<Side>>> {
    const wanted = [...new Set(addresses)];
    if (wanted.length === 0) return new Map();
    return this.withTokens(await this.table.read(this.table.query().whereIn('pool', wanted)));
  }

  async withTokens(rows: readonly TextRow[]): Promise<Map<string, SidedPool<Side>>> {
    const hints = new Map<string, { symbol: string; lp: boolean }>();
    for (const row of rows) {
      // Without a token registry the symbol is the contract address, as the recorders name pools.
      for (const side of this.sides) {
        const key = row[`${side}_token`];
        if (key) hints.set(key, { symbol: key.split('_')[0], lp: false });
      }
    }
    const objects = await this.tokens.objects(hints);
    return new Map(rows.map((row) => [row.pool!, new SidedPool(row, this.sides, objects)]));
  }
}
