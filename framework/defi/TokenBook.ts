import { Catalog, Database, ZERO_TIME } from '../index';
import { DexTable, TextRow } from './DexTable';

/** A pool token as the SDK's token.Token decodes it, plus the spec's `ledger` (absent for tez). */
export interface TokenObject {
  id: number;
  contract: string;
  ledger?: string;
  token_id: string;
  token_kind: 'tez' | 'fa' | 'lp';
  token_type: 'native' | 'fa1.2' | 'fa2';
  category: string;
  name: string;
  symbol: string;
  decimals: number;
  logo: string;
  tags: string[];
  creator: string;
  first_block: number;
  first_time: string;
  total_supply: string | null;
  total_minted: string | null;
  total_burned: string | null;
  last_supply_change_block: number;
  last_supply_change_time: string;
  price_usd: string | null;
  mcap_usd: string | null;
}

/** What the pool row says of a token when no registry knows it: its symbol from the pair name. */
export interface TokenHint {
  symbol: string;
  lp: boolean;
}

export const TEZ = 'tez';

/**
 * Pool tokens (`tez` or `KT1…_tokenId`) as token objects: from the metadata plugin's `token` table when
 * that plugin is enabled and knows the token, else from the pool row (symbol from the pair name,
 * decimals 0 since nothing on the pool says otherwise; tez is always XTZ with 6 decimals).
 */
export class TokenBook {
  private readonly tokens?: DexTable;

  constructor(db: Database, catalog: Catalog) {
    const table = catalog.table('token');
    if (table) this.tokens = new DexTable(db, table);
  }

  async objects(wanted: ReadonlyMap<string, TokenHint>): Promise<Map<string, TokenObject>> {
    const keys = [...wanted.keys()].filter((k) => k !== TEZ);
    const known = new Map<string, TextRow>();
    if (this.tokens && keys.length > 0) {
      for (const row of await this.tokens.read(this.tokens.query().whereIn('token_key', keys)))
        known.set(row.token_key!, row);
    }
    return new Map([...wanted].map(([key, hint]) => [key, key === TEZ ? tez() : token(key, hint, known.get(key))]));
  }
}

function tez(): TokenObject {
  return base({
    contract: '',
    token_id: '0',
    token_kind: 'tez',
    token_type: 'native',
    name: 'Tezos',
    symbol: 'XTZ',
    decimals: 6,
  });
}

function token(key: string, hint: TokenHint, row: TextRow | undefined): TokenObject {
  const [contract, tokenId] = key.split('_');
  const kind = row?.kind === 'fa1.2' ? 'fa1.2' : row?.kind === 'fa2' ? 'fa2' : undefined;
  return {
    ...base({
      contract,
      token_id: tokenId ?? '0',
      token_kind: hint.lp ? 'lp' : 'fa',
      // Without the registry, FA1.2 ledgers have no token id but 0 and FA2 ledgers any: a guess by id.
      token_type: kind ?? (tokenId === undefined || tokenId === '0' ? 'fa1.2' : 'fa2'),
      name: row?.name ?? '',
      symbol: row?.symbol ?? hint.symbol,
      decimals: row?.decimals == null ? 0 : Number(row.decimals),
    }),
    ledger: contract,
    id: row ? Number(row.row_id) : 0,
    logo: row?.logo ?? '',
    total_supply: row?.total_supply ?? null,
    first_block: row ? Number(row.first_height) : 0,
    first_time: row?.first_time ?? ZERO_TIME,
  };
}

function base(
  t: Pick<TokenObject, 'contract' | 'token_id' | 'token_kind' | 'token_type' | 'name' | 'symbol' | 'decimals'>,
): TokenObject {
  return {
    id: 0,
    ...t,
    category: '',
    logo: '',
    tags: [],
    creator: '',
    first_block: 0,
    first_time: ZERO_TIME,
    total_supply: null,
    total_minted: null,
    total_burned: null,
    last_supply_change_block: 0,
    last_supply_change_time: ZERO_TIME,
    price_usd: null,
    mcap_usd: null,
  };
}
