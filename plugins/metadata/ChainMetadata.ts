import type { Knex } from 'knex';
import { from, jsRow, PluginTables } from './PluginTables';

/** A token row with its off-chain document merged in, as /v1/tokens shows it (TzPro SDK `Token`). */
export interface TokenObject {
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
  metadata_uri: string | null;
  metadata_status: 'onchain' | 'ok' | 'pending' | 'error' | 'none';
  metadata_error?: string;
}

/**
 * What the chain says about contracts and tokens (TZIP-16 and TZIP-21, rows written by the indexer),
 * with the documents the resolver fetched for off-chain URIs.
 */
export class ChainMetadata {
  constructor(
    private readonly reader: Knex,
    private readonly tables: PluginTables,
  ) {}

  /** The contract's TZIP-16 document (on chain or fetched), undefined when there is none (yet). */
  async tz16(address: string): Promise<Record<string, unknown> | undefined> {
    const row = await from(this.reader, this.tables.contracts).where('contract', address).first();
    if (!row) return undefined;
    const c = jsRow(this.tables.contracts, row);
    if (c.document) return c.document as Record<string, unknown>;
    return c.uri ? this.document(String(c.uri)) : undefined;
  }

  /** TZIP-16 documents of many contracts (meta=1), keyed by address. */
  async tz16Many(addresses: readonly string[]): Promise<Map<string, Record<string, unknown>>> {
    const out = new Map<string, Record<string, unknown>>();
    const contracts = addresses.filter((a) => a.startsWith('KT1'));
    if (contracts.length === 0) return out;
    const rows = await from(this.reader, this.tables.contracts)
      .whereIn('contract', contracts)
      .select('contract', 'document', 'uri');
    const docs = await this.documents(
      rows.map((r: Record<string, unknown>) => r.uri).filter((u: unknown): u is string => typeof u === 'string'),
    );
    for (const raw of rows) {
      const r = jsRow(this.tables.contracts, raw);
      const doc = (r.document as Record<string, unknown> | null) ?? (r.uri ? docs.get(String(r.uri)) : undefined);
      if (doc) out.set(String(r.contract), doc);
    }
    return out;
  }

  /** The token's TZIP-21 metadata: on-chain token_info fields overlaid on its off-chain document. */
  async tz21(contract: string, tokenId: bigint): Promise<Record<string, unknown> | undefined> {
    const row = await from(this.reader, this.tables.tokens).where('token_key', `${contract}_${tokenId}`).first();
    if (!row) return undefined;
    const t = jsRow(this.tables.tokens, row);
    const offChain = t.uri ? await this.document(String(t.uri)) : undefined;
    const onChain = tz21Fields(t.info as Record<string, string> | null);
    if (!offChain && Object.keys(onChain).length === 0) return undefined;
    return { ...(offChain ?? {}), ...onChain };
  }

  async tokens(q: { limit: number; offset: number; order: 'asc' | 'desc'; contract?: string }): Promise<TokenObject[]> {
    let query = from(this.reader, this.tables.tokens).orderBy('row_id', q.order).limit(q.limit).offset(q.offset);
    if (q.contract) query = query.where('contract', q.contract);
    return this.tokenObjects(await query);
  }

  async token(contract: string, tokenId: bigint): Promise<TokenObject | undefined> {
    return (
      await this.tokenObjects(await from(this.reader, this.tables.tokens).where('token_key', `${contract}_${tokenId}`))
    )[0];
  }

  private async tokenObjects(raw: Record<string, unknown>[]): Promise<TokenObject[]> {
    const rows = raw.map((r) => jsRow(this.tables.tokens, r));
    const uris = rows
      .map((r: Record<string, unknown>) => r.uri)
      .filter((u: unknown): u is string => typeof u === 'string');
    const docs = await this.documents(uris);
    const states = await this.documentStates(uris);
    return rows.map((t) => {
      const doc = t.uri ? docs.get(String(t.uri)) : undefined;
      const pick = (k: string): unknown => t[k] ?? doc?.[k] ?? null;
      const decimals = pick('decimals');
      const state = t.uri ? states.get(String(t.uri)) : undefined;
      return {
        id: Number(t.row_id),
        ledger: String(t.contract),
        token_id: String(t.token_id),
        token_kind: 'fa',
        token_type: String(t.kind),
        category: '',
        name: String(pick('name') ?? ''),
        symbol: String(pick('symbol') ?? ''),
        decimals: Number.isInteger(Number(decimals)) ? Number(decimals) : 0,
        logo: String(t.logo ?? (doc?.thumbnailUri as string | undefined)?.trim() ?? ''),
        tags: Array.isArray(doc?.tags) ? (doc!.tags as unknown[]).map(String) : [],
        creator: '',
        first_block: Number(t.first_height),
        first_time: new Date(t.first_time as Date).toISOString(),
        total_supply: t.total_supply === null ? null : String(t.total_supply),
        metadata_uri: (t.uri as string | null) ?? null,
        metadata_status: t.uri ? (state?.status ?? 'pending') : t.info ? 'onchain' : 'none',
        ...(state?.error ? { metadata_error: state.error } : {}),
      };
    });
  }

  private async document(uri: string): Promise<Record<string, unknown> | undefined> {
    return (await this.documents([uri])).get(uri);
  }

  private async documents(uris: readonly string[]): Promise<Map<string, Record<string, unknown>>> {
    if (uris.length === 0) return new Map();
    const rows = await from(this.reader, this.tables.documents)
      .whereIn('uri', [...new Set(uris)])
      .where('status', this.tables.documents.column('status')!.type.parse('ok'))
      .select('uri', 'content');
    return new Map(
      rows.map((r: Record<string, unknown>) => [
        String(r.uri),
        jsRow(this.tables.documents, r).content as Record<string, unknown>,
      ]),
    );
  }

  private async documentStates(
    uris: readonly string[],
  ): Promise<Map<string, { status: 'ok' | 'error'; error?: string }>> {
    if (uris.length === 0) return new Map();
    const rows = await from(this.reader, this.tables.documents)
      .whereIn('uri', [...new Set(uris)])
      .select('uri', 'status', 'error');
    return new Map(
      rows.map((r: Record<string, unknown>) => [
        String(r.uri),
        {
          status: jsRow(this.tables.documents, r).status as 'ok' | 'error',
          ...(r.error ? { error: String(r.error) } : {}),
        },
      ]),
    );
  }
}

/**
 * token_info text fields as TZIP-21 values: numbers and booleans where the standard has them, JSON where a field holds
 * JSON.
 */
export function tz21Fields(info: Record<string, string> | null): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(info ?? {})) {
    if (k === '') continue;
    if (k === 'decimals' && /^\d+$/.test(v.trim())) out[k] = Number(v.trim());
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
