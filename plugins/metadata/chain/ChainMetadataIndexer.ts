import type {
  BlocksStartContext,
  Entity,
  EntityStore,
  IndexContext,
  NormalizedBlock,
  NormalizedOperation,
} from '../../../framework';
import {
  asString,
  asStringRecord,
  ContractCode,
  entrypointType,
  fitsBigIntColumn,
  interfacesOf,
  member,
  metadataText,
  section,
  storableString,
  typeShape,
} from '../../../framework';
import { metadataLocation, parseDocument, tokenMetadataValue } from './MetadataBytes';
import { metadataMapIds } from './MetadataMaps';

/** Where the indexer keeps what it finds: the catalog's contract_metadata and token rows. */
export interface MetadataRows {
  contracts: EntityStore;
  tokens: EntityStore;
  /**
   * A contract's parameter and storage types: from core-chain's contract row, else (migration
   * originations such as bootstrap contracts come without a script) from the node.
   */
  types(contract: string): Promise<ContractTypes | undefined>;
}

export interface ContractTypes {
  parameterType: unknown;
  storageType: unknown;
}

/** Upper bound of addresses remembered as having no metadata maps (a cache, safe to drop). */
const MAX_WITHOUT = 500_000;

/** How the indexer reports a value it cannot decode or store (UndecodableValues, for this plugin). */
export type UndecodableReport = (kind: string, detail: Record<string, unknown>) => void;

/**
 * TZIP-16 contract metadata and TZIP-12/21 token metadata from big map diffs. Originations tell which
 * big maps are `%metadata` and `%token_metadata`; later diffs of those maps update the contract's
 * metadata entries and the token rows. All writes go through entity stores, so reorgs undo them.
 * Off-chain documents are only named here (uri); the background resolver fetches them.
 */
export class ChainMetadataIndexer {
  /** Contracts known to have no row: most contract calls need no database look-up. */
  private readonly without = new Set<string>();

  constructor(private readonly undecodable: UndecodableReport) {}

  /**
   * The rows of the contracts whose big maps the batch changes, in a few queries rather than one per contract and
   * block.
   */
  async readAhead(blocks: readonly NormalizedBlock[], ctx: BlocksStartContext): Promise<void> {
    const addresses = new Set<string>();
    for (const block of blocks) {
      for (const op of block.operations) {
        if (
          op.status === 'applied' &&
          op.bigMapDiffs.length > 0 &&
          op.receiver !== undefined &&
          !this.without.has(op.receiver)
        )
          addresses.add(op.receiver);
      }
    }
    await ctx.preload('contract_metadata', 'contract', addresses);
  }

  async index(block: NormalizedBlock, ctx: IndexContext): Promise<void> {
    const chainContracts = ctx.entities('contract', 'address');
    const rows: MetadataRows = {
      contracts: ctx.entities('contract_metadata', 'contract'),
      tokens: ctx.entities('token', 'token_key'),
      types: async (address) => {
        const script = (await chainContracts.get(address))?.script;
        const hex =
          Buffer.isBuffer(script) || script instanceof Uint8Array ? Buffer.from(script).toString('hex') : script;
        if (typeof hex === 'string') return ContractCode.fromScriptHex(hex);
        const code = member(member(await ctx.node(`context/contracts/${address}`), 'script'), 'code');
        return code === undefined
          ? undefined
          : { parameterType: section(code, 'parameter'), storageType: section(code, 'storage') };
      },
    };
    for (const op of block.operations) {
      // Only originations and big map diffs change metadata: the others (attestations first) need no call.
      if (op.status !== 'applied' || (op.originatedContracts.length !== 1 && op.bigMapDiffs.length === 0)) continue;
      await this.operation(op, block, rows);
    }
  }

  async operation(
    op: NormalizedOperation,
    block: Pick<NormalizedBlock, 'level' | 'time'>,
    rows: MetadataRows,
  ): Promise<void> {
    // Originations, and migrations that originate (bootstrap contracts, protocol upgrades).
    const originated = op.originatedContracts.length === 1 ? op.originatedContracts[0] : undefined;
    if (originated !== undefined) await this.origination(op, originated, block.level, rows);
    const address = originated ?? op.receiver;
    if (address === undefined || op.bigMapDiffs.length === 0 || this.without.has(address)) return;
    const contract = await rows.contracts.get(address);
    if (!contract) {
      if (this.without.size >= MAX_WITHOUT) this.without.clear();
      this.without.add(address);
      return;
    }
    let entries: Record<string, string> | undefined;
    for (const d of op.bigMapDiffs) {
      if (d.bigMapId === undefined || (d.action !== 'update' && d.action !== 'remove')) continue;
      if (d.bigMapId === Number(contract.metadata_map) && d.key !== undefined) {
        const key = member(d.key, 'string');
        if (typeof key !== 'string' || storableString(key) === undefined) continue;
        entries ??= asStringRecord(contract.entries);
        const bytes = d.action === 'update' ? member(d.value, 'bytes') : undefined;
        if (typeof bytes === 'string') entries[key] = bytes;
        else delete entries[key];
      } else if (d.bigMapId === Number(contract.token_map) && d.key !== undefined) {
        await this.token(
          contract,
          d.action === 'update' ? d.value : undefined,
          asString(member(d.key, 'int')),
          block,
          rows,
        );
      }
    }
    if (entries)
      rows.contracts.update(contract, {
        entries,
        ...(await contractDocument(address, entries, rows.contracts)),
        update_height: block.level,
      });
  }

  private async origination(
    op: NormalizedOperation,
    address: string,
    height: number,
    rows: MetadataRows,
  ): Promise<void> {
    const code = member(op.script, 'code');
    const ids = metadataMapIds(
      code !== undefined ? section(code, 'storage') : (await rows.types(address))?.storageType,
      op.bigMapDiffs,
    );
    if (ids.metadata === undefined && ids.tokenMetadata === undefined) return;
    this.without.delete(address);
    rows.contracts.insert({
      contract: address,
      metadata_map: ids.metadata ?? null,
      token_map: ids.tokenMetadata ?? null,
      uri: null,
      document: null,
      error: null,
      entries: {},
      first_height: height,
      update_height: height,
    });
  }

  /** A token_metadata key set (value) or removed (undefined): the token row follows it. */
  private async token(
    contract: Entity,
    value: unknown,
    keyId: string | undefined,
    block: Pick<NormalizedBlock, 'level' | 'time'>,
    rows: MetadataRows,
  ): Promise<void> {
    const decoded = value === undefined ? undefined : tokenMetadataValue(value);
    const address = String(contract.contract);
    if (value !== undefined && decoded === undefined) {
      this.undecodable('token_metadata', { contract: address, level: block.level, key: keyId });
    }
    const tokenId = decoded?.tokenId ?? (keyId !== undefined && /^\d+$/.test(keyId) ? BigInt(keyId) : undefined);
    if (tokenId === undefined) return;
    if (!fitsBigIntColumn(tokenId)) {
      this.undecodable('token_id', { contract: address, level: block.level, digits: tokenId.toString().length });
      return;
    }
    const key = `${address}_${tokenId}`;
    const fields = tokenFields(decoded?.info);
    const existing = await rows.tokens.get(key);
    if (existing) {
      rows.tokens.update(existing, { ...fields, update_height: block.level });
      return;
    }
    rows.tokens.insert({
      contract: address,
      token_id: tokenId,
      token_key: key,
      kind: tokenKind((await rows.types(address))?.parameterType),
      ...fields,
      total_supply: null,
      first_height: block.level,
      first_time: block.time,
      update_height: block.level,
    });
  }
}

/**
 * FA2 unless the contract's `transfer` is FA1.2's `(pair address (pair address nat))` (ledgers that
 * implement only part of FA1.2, like kUSD-style tokens with extra entrypoints, count too).
 */
export function tokenKind(parameterType: unknown): 'fa1.2' | 'fa2' {
  if (parameterType === undefined || interfacesOf(parameterType).includes('FA2')) return 'fa2';
  return typeShape(entrypointType(parameterType, 'transfer')) === '(pair address (pair address nat))' ? 'fa1.2' : 'fa2';
}

/** The token row's metadata columns from a decoded token_info (all null when the key was removed). */
export function tokenFields(info: Record<string, string> | undefined): Record<string, unknown> {
  if (!info) return { decimals: null, symbol: null, name: null, logo: null, uri: null, info: null };
  const location = info[''] !== undefined ? metadataLocation(info['']) : undefined;
  const decimals = /^\s*\d{1,3}\s*$/.test(info.decimals ?? '') ? Number(info.decimals) : null;
  const logo = info.thumbnailUri ?? info.displayUri ?? info.icon ?? info.logo;
  return {
    decimals,
    symbol: info.symbol ?? null,
    name: info.name ?? null,
    logo: logo?.trim() || null,
    uri: location?.kind === 'remote' ? location.uri : null,
    info,
  };
}

/**
 * The contract's TZIP-16 columns from its %metadata entries: the URI under the empty key and, for
 * `tezos-storage:` URIs, the document itself (from this contract's entries or another's row).
 */
export async function contractDocument(
  address: string,
  entries: Record<string, string>,
  contracts: EntityStore,
): Promise<Record<string, unknown>> {
  const uri = entries[''] === undefined ? '' : metadataText(entries['']);
  // An empty URI names no document: TZIP-16 contracts that have none (yet) often store "".
  if (uri.trim() === '') return { uri: null, document: null, error: null };
  const location = metadataLocation(uri);
  if (location.kind === 'invalid') return { uri, document: null, error: location.reason };
  if (location.kind === 'remote') return { uri, document: null, error: null };
  const holder =
    location.contract === undefined || location.contract === address
      ? entries
      : asStringRecord((await contracts.get(location.contract))?.entries);
  const hex = holder?.[location.key];
  if (hex === undefined)
    return {
      uri,
      document: null,
      error: `no metadata entry '${location.key}'${location.contract ? ` in ${location.contract}` : ''}`,
    };
  const { document, error } = parseDocument(metadataText(hex));
  return { uri, document: document ?? null, error: error ?? null };
}
