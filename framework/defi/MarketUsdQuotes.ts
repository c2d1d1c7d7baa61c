import type { Knex } from 'knex';
import type { Catalog } from '../index';
import { decimal, unitPrice } from './Decimal';
import { marginalAmounts, type PriceColumns } from './marginalAmounts';
import type { UsdQuotes } from './UsdQuotes';

/**
 * UsdQuotes from what this instance indexed: tez in USD is the close of the latest XTZ_USD minute
 * candle of the markets plugin at or before the time (any exchange, the most recent wins), else its
 * latest ticker; a token in tez is the reserve ratio of the token's deepest pool against tez
 * (decimals from the metadata plugin's token table, else 0). Null when the markets plugin is off,
 * has no price yet, or no tez pool holds the token (or the DEX plugin is off).
 */
export class MarketUsdQuotes implements UsdQuotes {
  /**
   * `read` opens a select on a catalog table: the API's read-only Knex, or a handler's `ctx.read`
   * (record time, inside the batch). `has` tells which optional tables (markets, metadata) exist.
   */
  constructor(
    private readonly read: (code: string) => Knex.QueryBuilder,
    private readonly has: (code: string) => boolean,
  ) {}

  /** Over the API's reader: every catalog table of the enabled plugins. */
  static reading(reader: Knex, catalog: Catalog): MarketUsdQuotes {
    return new MarketUsdQuotes(
      (code) => {
        const t = catalog.require(code);
        return reader.withSchema(t.schema).from(t.storage);
      },
      (code) => catalog.table(code) !== undefined,
    );
  }

  async tezUsd(at: Date): Promise<string | null> {
    if (this.has('market_candle')) {
      const row = await this.read('market_candle')
        .where('pair', 'XTZ_USD')
        .where('time', '<=', at)
        .orderBy('time', 'desc')
        .first('close');
      if (row?.close !== undefined && row.close !== null) return String(row.close);
    }
    if (!this.has('market_ticker')) return null;
    const row = await this.read('market_ticker')
      .where('pair', 'XTZ_USD')
      .where('timestamp', '<=', at)
      .orderBy('timestamp', 'desc')
      .first('last');
    return row?.last === undefined || row.last === null ? null : String(row.last);
  }

  /**
   * The time of the earliest tez price tezUsd can find (candle or ticker), null when there is none: before it every
   * answer is null.
   */
  async firstTezUsdTime(): Promise<Date | null> {
    const times: Date[] = [];
    if (this.has('market_candle'))
      times.push((await this.read('market_candle').where('pair', 'XTZ_USD').min('time as t').first())?.t);
    if (this.has('market_ticker'))
      times.push((await this.read('market_ticker').where('pair', 'XTZ_USD').min('timestamp as t').first())?.t);
    const known = times.filter((t) => t !== null && t !== undefined).map((t) => new Date(t));
    return known.length === 0 ? null : new Date(Math.min(...known.map((t) => t.getTime())));
  }

  async tokenTez(token: string, _at: Date): Promise<string | null> {
    if (token === 'tez') return '1';
    // Farms and lending read prices too, with or without the DEX plugin enabled.
    if (!this.has('dex_pool')) return null;
    const pools = (await tezPools(this.read('dex_pool'), token).select(
      'token_a',
      'supply_a',
      'supply_b',
      'marginal_a',
      'marginal_b',
    )) as TezPoolRow[];
    return pools.length === 0 ? null : tezPerToken(pools, token, await this.decimals(token));
  }

  private async decimals(token: string): Promise<number> {
    if (!this.has('token')) return 0;
    const row = await this.read('token').where('token_key', token).first('decimals');
    return row?.decimals === null || row?.decimals === undefined ? 0 : Number(row.decimals);
  }
}

/** The two-token pools of a token against tez, in a select over dex_pool. */
export const tezPools = (q: Knex.QueryBuilder, token: string): Knex.QueryBuilder =>
  q
    .where((w) => w.where({ token_a: token, token_b: 'tez' }).orWhere({ token_a: 'tez', token_b: token }))
    .whereNull('token_c');

/** A two-token pool of a token against tez, as any reader holds it (bigint or text): token_a and PriceColumns. */
export type TezPoolRow = Readonly<Record<string, unknown>>;

/**
 * Tez per whole unit of `token` from its pools against tez: the marginal price (the supplies' ratio
 * unless the pool keeps its own) of the deepest pool by tez held; null when there is none or it holds
 * none of the token. The one rule for record time (RecordUsdQuotes) and read time.
 */
export function tezPerToken(pools: readonly TezPoolRow[], token: string, decimals: number): string | null {
  if (pools.length === 0) return null;
  const deepest = pools.reduce((a, b) => (tezHeld(b, token) > tezHeld(a, token) ? b : a));
  const [a, b] = marginalAmounts(deepest as PriceColumns);
  const [tokenSide, tezSide] = deepest.token_a === token ? [a, b] : [b, a];
  if (tokenSide === 0n) return null;
  return decimal(unitPrice(tokenSide, decimals, tezSide, 6));
}

function tezHeld(pool: TezPoolRow, token: string): bigint {
  return BigInt(String(pool.token_a === token ? pool.supply_b : pool.supply_a));
}
