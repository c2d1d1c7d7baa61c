// Generated from tables.yaml by `npm run gen`: do not edit
// (test/framework/generated.test.ts checks it is current).
import { tableHandle } from '../../framework';

/** account and token metadata entries written through the API or imported (not chain data; never rolled back) */
export type MetadataRow = {
  /** unique row id (local to this table and instance) */
  row_id?: bigint | number;
  /** account or contract address */
  address: string;
  /** token id for token entries; null for account entries */
  asset_id?: bigint | number | null;
  /** `address` or `address_assetid`, the entry's unique key */
  entry_key: string;
  /** the entry: an object keyed by schema name */
  content: unknown;
  /** time of the latest write */
  updated_time: Date | number | string;
};

/** A metadata row as read (CatalogRows): values as explorer objects show them. */
export type MetadataRead = {
  row_id: number | bigint;
  address: string;
  asset_id: number | bigint | null;
  entry_key: string;
  content: unknown;
  updated_time: string;
};

/**
 * TZIP-16 contract metadata from each contract's %metadata big map (one row per contract that has a metadata or
 * token_metadata big map)
 */
export type ContractMetadataRow = {
  /** unique row id (local to this table and instance) */
  row_id?: bigint | number;
  /** contract address */
  contract: string;
  /** id of the contract's %metadata big map; null when it has none */
  metadata_map?: bigint | number | null;
  /** id of the contract's %token_metadata big map; null when it has none */
  token_map?: bigint | number | null;
  /** the metadata URI under the empty key (tezos-storage:, ipfs://, https://) */
  uri?: string | null;
  /** the TZIP-16 document when it is stored on chain (tezos-storage:); off-chain documents are in metadata_documents */
  document?: unknown | null;
  /** why the on-chain document could not be read; null when fine */
  error?: string | null;
  /** the %metadata big map's live entries: key → value bytes (hex) */
  entries: unknown;
  /** height at which the big maps were first seen */
  first_height: bigint | number;
  /** height of the latest change */
  update_height: bigint | number;
};

/** A contract_metadata row as read (CatalogRows): values as explorer objects show them. */
export type ContractMetadataRead = {
  row_id: number | bigint;
  contract: string;
  metadata_map: number | bigint | null;
  token_map: number | bigint | null;
  uri: string | null;
  document: unknown;
  error: string | null;
  entries: unknown;
  first_height: number | bigint;
  update_height: number | bigint;
};

/** tokens (FA1.2 and FA2 ledgers × token ids) with their TZIP-21 metadata as found on chain */
export type TokenRow = {
  /** unique row id (local to this table and instance) */
  row_id?: bigint | number;
  /** token ledger contract */
  contract: string;
  /** token id (0 for FA1.2) */
  token_id: bigint | number;
  /** `contract_tokenid`, the token's unique key */
  token_key: string;
  /** token standard */
  kind: 'fa1.2' | 'fa2';
  /** decimals from the token metadata; null when unknown */
  decimals?: bigint | number | null;
  /** symbol from the token metadata */
  symbol?: string | null;
  /** name from the token metadata */
  name?: string | null;
  /** logo (TZIP-21 thumbnailUri or displayUri) */
  logo?: string | null;
  /** off-chain token metadata URI (the empty key of token_info) */
  uri?: string | null;
  /** token_info decoded: field → text (or JSON where the field holds JSON) */
  info?: unknown | null;
  /** total supply where the contract keeps it; null when unknown */
  total_supply?: bigint | number | null;
  /** height at which the token was first seen */
  first_height: bigint | number;
  /** time of block first_height */
  first_time: Date | number | string;
  /** height of the latest metadata change */
  update_height: bigint | number;
};

/** A token row as read (CatalogRows): values as explorer objects show them. */
export type TokenRead = {
  row_id: number | bigint;
  contract: string;
  token_id: string;
  token_key: string;
  kind: 'fa1.2' | 'fa2';
  decimals: number | bigint | null;
  symbol: string | null;
  name: string | null;
  logo: string | null;
  uri: string | null;
  info: unknown;
  total_supply: string | null;
  first_height: number | bigint;
  first_time: string;
  update_height: number | bigint;
};

/**
 * off-chain metadata documents (ipfs://, https://) fetched by the background resolver, keyed by URI (content, not chain
 * data)
 */
export type MetadataDocumentsRow = {
  /** unique row id (local to this table and instance) */
  row_id?: bigint | number;
  /** document URI */
  uri: string;
  /** whether the document was fetched and parsed */
  status: 'ok' | 'error';
  /** the JSON document; null on error */
  content?: unknown | null;
  /** why it could not be used (unreachable, too big, invalid JSON); null when ok */
  error?: string | null;
  /** fetch attempts so far */
  attempts: bigint | number;
  /** time of the latest attempt */
  fetched_time: Date | number | string;
  /** when an error is retried; null when ok or given up */
  next_try_time?: Date | number | string | null;
};

/** A metadata_documents row as read (CatalogRows): values as explorer objects show them. */
export type MetadataDocumentsRead = {
  row_id: number | bigint;
  uri: string;
  status: 'ok' | 'error';
  content: unknown;
  error: string | null;
  attempts: number | bigint;
  fetched_time: string;
  next_try_time: string | null;
};

/** Typed handles of the metadata tables: `ctx.append(tables.metadata, row)`. */
export const tables = {
  metadata: tableHandle<MetadataRow, MetadataRead>('metadata'),
  contract_metadata: tableHandle<ContractMetadataRow, ContractMetadataRead>('contract_metadata'),
  token: tableHandle<TokenRow, TokenRead>('token'),
  metadata_documents: tableHandle<MetadataDocumentsRow, MetadataDocumentsRead>('metadata_documents'),
} as const;
