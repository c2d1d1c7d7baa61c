import { ChainTableRead, ChainTables } from './ChainTables';
import { ContractCode, entrypointList, metadataField } from '../../../framework';

const CONTRACT_COLUMNS = [
  'row_id',
  'address',
  'account_id',
  'creator',
  'storage_size',
  'storage_paid',
  'storage_burn',
  'first_seen',
  'last_seen',
  'first_seen_time',
  'last_seen_time',
  'iface_hash',
  'code_hash',
  'storage_hash',
  'call_stats',
  'features',
  'interfaces',
  'script',
  'n_calls_failed',
] as const;

/** A contract row as contract objects read it. */
export type ContractRow = Pick<ChainTableRead<'contract'>, (typeof CONTRACT_COLUMNS)[number]>;

/**
 * Contract objects: the contract row with the contract account's delegate, fees and call counters,
 * per-entrypoint call counts by name, features and interfaces as lists.
 */
export class ContractObjects {
  readonly rows;
  private readonly accounts;

  constructor(tables: ChainTables) {
    this.rows = tables.rows('contract', CONTRACT_COLUMNS);
    this.accounts = tables.rows('account', ['address', 'baker', 'total_fees_used', 'n_tx_out']);
  }

  async objects(rows: readonly ContractRow[], meta: boolean): Promise<Record<string, unknown>[]> {
    if (rows.length === 0) return [];
    const accounts = new Map(
      (
        await this.accounts.read(
          this.accounts.query().whereIn(
            'address',
            rows.map((r) => r.address),
          ),
        )
      ).map((a) => [a.address, a]),
    );
    return rows.map((row) => {
      const account = accounts.get(row.address);
      const code = ContractCode.fromScriptHex(row.script);
      const calls = callCounts(row.call_stats, code);
      return {
        row_id: row.row_id,
        address: row.address,
        account_id: row.account_id,
        creator: row.creator,
        baker: account?.baker ?? null,
        storage_size: row.storage_size,
        storage_paid: row.storage_paid,
        storage_burn: row.storage_burn,
        total_fees_used: account?.total_fees_used ?? 0,
        first_seen: row.first_seen,
        last_seen: row.last_seen,
        first_seen_time: row.first_seen_time,
        last_seen_time: row.last_seen_time,
        n_calls_in: Object.values(calls).reduce((a, b) => a + b, 0),
        n_calls_out: account?.n_tx_out ?? 0,
        n_calls_failed: row.n_calls_failed,
        iface_hash: row.iface_hash,
        code_hash: row.code_hash,
        storage_hash: row.storage_hash,
        call_stats: calls,
        features: list(row.features),
        interfaces: list(row.interfaces),
        ...metadataField(meta, row.address, row.creator, account?.baker),
      };
    });
  }
}

/** `call_stats` (a 4-byte big-endian counter per entrypoint id) keyed by entrypoint name. */
function callCounts(hex: string, code: ContractCode | undefined): Record<string, number> {
  const bytes = Buffer.from(hex ?? '', 'hex');
  const names = code ? entrypointList(code.parameterType, false).map((e) => e.name) : [];
  const out: Record<string, number> = {};
  for (let i = 0; i + 4 <= bytes.length; i += 4) out[names[i / 4] ?? `@${i / 4}`] = bytes.readUInt32BE(i);
  return out;
}

function list(text: string | null): string[] {
  return text ? text.split(',').filter((s) => s !== '') : [];
}
