import { CatalogRows, Database, isRecord, TOKEN_FACTS_COLUMNS, tokenFacts, TokenFacts } from '../../framework';
import { PluginTables } from './PluginTables';
import {
  ContractMetadataRead,
  tables as handles,
  MetadataDocumentsRead,
  TokenRead as TokenTableRead,
} from './tables.generated';

/** A token row with its off-chain document merged in, as /v1/tokens shows it (TzPro SDK `Token`). */
export interface TokenObject extends TokenFacts {
  metadata_uri: string | null;
  metadata_status: 'onchain' | 'ok' | 'pending' | 'error' | 'none';
  metadata_error?: string;
}

type Document = Record<string, unknown>;
type TokenRead = Pick<TokenTableRead, (typeof TOKEN_FACTS_COLUMNS)[number] | 'uri' | 'info'>;
type FetchedRead = Pick<MetadataDocumentsRead, 'uri' | 'status' | 'content' | 'error'>;

/**
 * What the chain says about contracts and tokens (TZIP-16 and TZIP-21, rows written by the indexer),
 * with the documents the resolver fetched for off-chain URIs.
 */
export class ChainMetadata {
  private readonly contracts: CatalogRows<Pick<ContractMetadataRead, 'contract' | 'document' | 'uri'>>;
  private readonly tokenRows: CatalogRows<TokenRead>;
  private readonly documentRows: CatalogRows<FetchedRead>;

  constructor(db: Database, tables: PluginTables) {
    this.contracts = CatalogRows.of(db, tables.contracts, handles.contract_metadata, ['contract', 'document', 'uri']);
    this.tokenRows = CatalogRows.of(db, tables.tokens, handles.token, [...TOKEN_FACTS_COLUMNS, 'uri', 'info']);
    this.documentRows = CatalogRows.of(db, tables.documents, handles.metadata_documents, [
      'uri',
      'status',
      'content',
      'error',
    ]);
  }

  /** The contract's TZIP-16 document (on chain or fetched), undefined when there is none (yet). */
  async tz16(address: string): Promise<Document | undefined> {
    return (await this.tz16Many([address])).get(address);
  }

  /** TZIP-16 documents of many contracts (meta=1), keyed by address. */
  async tz16Many(addresses: readonly string[]): Promise<Map<string, Document>> {
    const out = new Map<string, Document>();
    const contracts = addresses.filter((a) => a.startsWith('KT1'));
    if (contracts.length === 0) return out;
    const rows = await this.contracts.read(this.contracts.query().whereIn('contract', contracts));
    const docs = await this.documents(rows.map((r) => r.uri));
    for (const r of rows) {
      const doc = isRecord(r.document) ? r.document : r.uri ? docs.get(r.uri) : undefined;
      if (doc) out.set(r.contract, doc);
    }
    return out;
  }

  /** The token's TZIP-21 metadata: on-chain token_info fields overlaid on its off-chain document. */
  async tz21(contract: string, tokenId: bigint): Promise<Document | undefined> {
    const t = await this.tokenRows.first(this.tokenRows.query().where('token_key', `${contract}_${tokenId}`));
    if (!t) return undefined;
    const offChain = t.uri ? (await this.documents([t.uri])).get(t.uri) : undefined;
    const onChain = tz21Fields(t.info);
    if (!offChain && Object.keys(onChain).length === 0) return undefined;
    return { ...(offChain ?? {}), ...onChain };
  }

  async tokens(q: { limit: number; offset: number; order: 'asc' | 'desc'; contract?: string }): Promise<TokenObject[]> {
    let query = this.tokenRows.query().orderBy('row_id', q.order).limit(q.limit).offset(q.offset);
    if (q.contract) query = query.where('contract', q.contract);
    return this.tokenObjects(await this.tokenRows.read(query));
  }

  async token(contract: string, tokenId: bigint): Promise<TokenObject | undefined> {
    const query = this.tokenRows.query().where('token_key', `${contract}_${tokenId}`);
    return (await this.tokenObjects(await this.tokenRows.read(query)))[0];
  }

  private async tokenObjects(rows: TokenRead[]): Promise<TokenObject[]> {
    const fetched = await this.fetched(rows.map((r) => r.uri));
    return rows.map((t) => {
      const state = t.uri ? fetched.get(t.uri) : undefined;
      const doc = documentOf(state);
      const facts = tokenFacts(t, {
        kind: 'fa',
        name: doc?.name,
        symbol: doc?.symbol,
        decimals: doc?.decimals,
        logo: typeof doc?.thumbnailUri === 'string' ? doc.thumbnailUri.trim() : undefined,
        tags: Array.isArray(doc?.tags) ? doc.tags.map(String) : [],
      });
      return {
        ...facts,
        first_time: new Date(facts.first_time).toISOString(),
        metadata_uri: t.uri,
        metadata_status: t.uri ? (state?.status ?? 'pending') : t.info ? 'onchain' : 'none',
        ...(state?.error ? { metadata_error: state.error } : {}),
      };
    });
  }

  /** The fetched documents of the URIs given, by URI. */
  private async documents(uris: readonly (string | null)[]): Promise<Map<string, Document>> {
    const out = new Map<string, Document>();
    for (const [uri, state] of await this.fetched(uris)) {
      const doc = documentOf(state);
      if (doc) out.set(uri, doc);
    }
    return out;
  }

  /** What the resolver fetched for the URIs given (ok or error), by URI. */
  private async fetched(uris: readonly (string | null)[]): Promise<Map<string, FetchedRead>> {
    const wanted = [...new Set(uris.filter((u) => u !== null))];
    if (wanted.length === 0) return new Map();
    const rows = await this.documentRows.read(this.documentRows.query().whereIn('uri', wanted));
    return new Map(rows.map((r) => [r.uri, r]));
  }
}

/** The document of a fetch that went well: a JSON object. */
function documentOf(fetched: FetchedRead | undefined): Document | undefined {
  return fetched?.status === 'ok' && isRecord(fetched.content) ? fetched.content : undefined;
}

/**
 * token_info text fields as TZIP-21 values: numbers and booleans where the standard has them, JSON where a field holds
 * JSON.
 */
export function tz21Fields(info: unknown): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(isRecord(info) ? info : {})) {
    if (k === '') continue;
    if (typeof v !== 'string') out[k] = v;
    else if (k === 'decimals' && /^\d+$/.test(v.trim())) out[k] = Number(v.trim());
    else if (/^(is[A-Z]|should[A-Z])/.test(k) && (v === 'true' || v === 'false')) out[k] = v === 'true';
    else if (/^[[{]/.test(v.trim())) {
      try {
        out[k] = JSON.parse(v);
      } catch {
        out[k] = v;
      }
    } else out[k] = v;
  }
  return out;
}
