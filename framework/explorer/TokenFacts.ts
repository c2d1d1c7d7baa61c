import type { Catalog } from '../catalog/Catalog';
import type { Database } from '../storage/Database';
import { CatalogRows } from './CatalogRows';

/**
 * What a token is, as the TzPro SDK's `token.Token` decodes it: the part that `/v1/tokens` (metadata)
 * and the DeFi pools' token objects share.
 */
export interface TokenFacts {
  id: number;
  ledger: string;
  token_id: string;
  token_kind: string;
  token_type: string;
  category: string;
  name: string;
  symbol: string;
  decimals: number;
  logo: string;
  tags: string[];
  creator: string;
  first_block: number;
  first_time: string;
  /** Null until the supply is tracked: never an invented 0. */
  total_supply: string | null;
}

/**
 * The columns of the metadata plugin's `token` table that facts come from, as `CatalogRows` reads them
 * (that plugin's generated `TokenRead` has them).
 */
export type TokenFactsRow = Record<'contract' | 'token_id' | 'token_key' | 'first_time', string> &
  Record<'row_id' | 'first_height', number | bigint> &
  Record<'symbol' | 'name' | 'logo' | 'total_supply', string | null> & {
    kind: 'fa1.2' | 'fa2';
    decimals: number | bigint | null;
  };

export const TOKEN_FACTS_COLUMNS = [
  'row_id',
  'contract',
  'token_id',
  'token_key',
  'kind',
  'decimals',
  'symbol',
  'name',
  'logo',
  'total_supply',
  'first_height',
  'first_time',
] as const satisfies readonly (keyof TokenFactsRow)[];

/** What fills the facts a token row leaves empty: an off-chain document's fields, a pool's pair name. */
export interface TokenFallback {
  /** `lp` for a pool's liquidity token. */
  kind: 'fa' | 'lp';
  name?: unknown;
  symbol?: unknown;
  decimals?: unknown;
  logo?: string;
  tags?: string[];
}

/** A token's facts: the row's, else the fallback's (decimals 0 when neither has an integer). */
export function tokenFacts(row: TokenFactsRow, fallback: TokenFallback): TokenFacts {
  const decimals = Number(row.decimals ?? fallback.decimals ?? 0);
  return {
    id: Number(row.row_id),
    ledger: row.contract,
    token_id: row.token_id,
    token_kind: fallback.kind,
    token_type: row.kind,
    category: '',
    name: String(row.name ?? fallback.name ?? ''),
    symbol: String(row.symbol ?? fallback.symbol ?? ''),
    decimals: Number.isInteger(decimals) ? decimals : 0,
    logo: row.logo ?? fallback.logo ?? '',
    tags: fallback.tags ?? [],
    creator: '',
    first_block: Number(row.first_height),
    first_time: row.first_time,
    total_supply: row.total_supply,
  };
}

/**
 * Token rows by key (`KT1…_tokenId`) from the metadata plugin's `token` table, read by catalog name:
 * none when that plugin is not enabled.
 */
export class TokenFactsReader {
  private readonly rows?: CatalogRows<TokenFactsRow>;

  constructor(db: Database, catalog: Catalog) {
    const table = catalog.table('token');
    if (table) this.rows = new CatalogRows<TokenFactsRow>(db, table, TOKEN_FACTS_COLUMNS);
  }

  async byKey(keys: readonly string[]): Promise<Map<string, TokenFactsRow>> {
    if (!this.rows || keys.length === 0) return new Map();
    const rows = await this.rows.read(this.rows.query().whereIn('token_key', [...keys]));
    return new Map(rows.map((row) => [row.token_key, row]));
  }
}
