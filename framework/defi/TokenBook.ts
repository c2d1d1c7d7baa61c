import {
  Catalog,
  Database,
  type TokenFacts,
  TokenFactsReader,
  type TokenFactsRow,
  tokenFacts,
  ZERO_TIME,
} from '../index';

/**
 * A pool token as the SDK's token.Token decodes it (the framework's `TokenFacts`, in the order the DEX
 * answers have), plus the spec's `ledger` (absent for tez).
 */
export interface TokenObject extends Omit<TokenFacts, 'ledger' | 'token_kind' | 'token_type'> {
  contract: string;
  ledger?: string;
  token_kind: 'tez' | 'fa' | 'lp';
  token_type: 'native' | 'fa1.2' | 'fa2';
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
  private readonly tokens: TokenFactsReader;

  constructor(db: Database, catalog: Catalog) {
    this.tokens = new TokenFactsReader(db, catalog);
  }

  async objects(wanted: ReadonlyMap<string, TokenHint>): Promise<Map<string, TokenObject>> {
    const known = await this.tokens.byKey([...wanted.keys()].filter((k) => k !== TEZ));
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

function token(key: string, hint: TokenHint, row: TokenFactsRow | undefined): TokenObject {
  const [contract, tokenId] = key.split('_');
  const token_kind = hint.lp ? 'lp' : 'fa';
  if (!row)
    return {
      ...base({
        contract,
        token_id: tokenId ?? '0',
        token_kind,
        // Without the registry, FA1.2 ledgers have no token id but 0 and FA2 ledgers any: a guess by id.
        token_type: tokenId === undefined || tokenId === '0' ? 'fa1.2' : 'fa2',
        name: '',
        symbol: hint.symbol,
        decimals: 0,
      }),
      ledger: contract,
    };
  const facts = tokenFacts(row, { kind: token_kind, symbol: hint.symbol });
  return {
    ...base({
      contract,
      token_id: facts.token_id,
      token_kind,
      token_type: row.kind,
      name: facts.name,
      symbol: facts.symbol,
      decimals: facts.decimals,
    }),
    ledger: contract,
    id: facts.id,
    logo: facts.logo,
    total_supply: facts.total_supply,
    first_block: facts.first_block,
    first_time: facts.first_time,
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
