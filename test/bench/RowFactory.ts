import { b58Encode, PrefixV2 } from '@taquito/utils';
import { ColumnDef, TableDef } from '../../framework/catalog/CatalogModel';
import { BinaryHashType } from '../../framework/catalog/types/BinaryHashType';
import { EnumType } from '../../framework/catalog/types/EnumType';
import { FixedType } from '../../framework/catalog/types/FixedType';
import { HashType } from '../../framework/catalog/types/HashType';
import { prng } from '../support/SampleTable';

const HASH_PREFIX: Record<string, PrefixV2> = {
  block: PrefixV2.BlockHash,
  operation: PrefixV2.OperationHash,
  protocol: PrefixV2.ProtocolHash,
  expr: PrefixV2.ScriptExpr,
  chain: PrefixV2.ChainID,
  context: PrefixV2.ContextHash,
  nonce: PrefixV2.CycleNonce,
  pubkey: PrefixV2.Ed25519PublicKey,
};
const PAYLOAD: Partial<Record<PrefixV2, number>> = { [PrefixV2.ChainID]: 4, [PrefixV2.Ed25519PublicKey]: 32 };

/** The addresses of every generated row (row i holds ADDRESSES[i % 64]), the same in every table. */
const ADDRESSES: readonly string[] = (() => {
  const rnd = prng(64);
  return Array.from({ length: 64 }, () =>
    b58Encode(
      Uint8Array.from({ length: 20 }, () => Math.floor(rnd() * 256)),
      PrefixV2.Ed25519PublicKeyHash,
    ),
  );
})();

/**
 * Plausible rows for any catalog table, generated from the column types alone (benchmarks). A column
 * filtered through a row id (op `sender`, `sender_id`) gets the id of its address among keyRows'; a
 * sparse column is zero in two rows of three.
 */
export function generateRows(table: TableDef, n: number, seed = 1): Record<string, unknown>[] {
  const rnd = prng(seed);
  const bytes = (k: number): Uint8Array => Uint8Array.from({ length: k }, () => Math.floor(rnd() * 256));
  const pools = new Map<string, string[]>();
  const pool = (key: string, make: () => string): string[] => {
    if (!pools.has(key)) pools.set(key, Array.from({ length: 64 }, make));
    return pools.get(key)!;
  };
  const value = (c: ColumnDef, i: number): unknown => {
    const t = c.type;
    switch (t.name) {
      case 'int64':
      case 'uint64':
        return BigInt(Math.floor(rnd() * 1e9));
      case 'float64':
        return Math.round(rnd() * 1e6) / 1e3;
      case 'money':
        return BigInt(Math.floor(rnd() * 1e10));
      case 'datetime':
        return new Date(Date.UTC(2024, 0, 1) + i * 8000);
      case 'bool':
        return rnd() < 0.5;
      case 'address':
        return ADDRESSES[i % 64];
      case 'string':
        return `value-${i % 1000}`;
      case 'bytes':
        return Buffer.from(bytes(8)).toString('hex');
      case 'bigint':
        return BigInt(Math.floor(rnd() * 1e12)) * 1_000_000n;
      case 'json':
        return { prim: 'Pair', args: [{ int: String(i) }, { string: 'x' }] };
    }
    if (t instanceof EnumType) return t.values[i % t.values.length];
    if (t instanceof FixedType) return (rnd() * 1000).toFixed(t.decimals);
    if (t instanceof HashType || t instanceof BinaryHashType) {
      const prefix = HASH_PREFIX[t instanceof HashType ? (t.kind ?? 'block') : 'operation'];
      return pool(t.name, () => b58Encode(bytes(PAYLOAD[prefix] ?? 32), prefix))[i % 64];
    }
    throw new Error(`no generator for column type ${t.name}`);
  };
  return Array.from({ length: n }, (_, i) => {
    const row: Record<string, unknown> = {};
    for (const c of table.columns) if (c.name !== 'row_id') row[c.name] = value(c, i);
    for (const c of table.columns) if (c.via) row[c.via.column.name] = BigInt((i % 64) + 1);
    // Sparse columns (an attestation's fee, gas…) are zero in most rows, as on the chain.
    for (const c of table.columns) if (c.sparse && i % 3 !== 0) row[c.name] = 0n;
    return row;
  });
}

/** Rows of `table` (op `sender`'s account) whose `key` holds the generated addresses, with row ids 1 to 64. */
export function keyRows(table: TableDef, key: string): Record<string, unknown>[] {
  return generateRows(table, ADDRESSES.length).map((r, i) => ({ ...r, row_id: i + 1, [key]: ADDRESSES[i] }));
}
