import { CatalogRows, ExplorerRow } from '../../../framework';

/**
 * The signer of the operation that caused each internal op row: the sender of the nearest earlier
 * non-internal row of the same group and block. `ops` reads the op table's hash, height, op_n and
 * sender. Rows that are not internal are left out.
 */
export async function outerSigners(ops: CatalogRows, rows: readonly ExplorerRow[]): Promise<Map<ExplorerRow, string>> {
  const internal = rows.filter((r) => r.is_internal === true && r.hash !== null);
  const out = new Map<ExplorerRow, string>();
  if (internal.length === 0) return out;
  const hashes = [...new Set(internal.map((r) => r.hash as string))];
  const outer = await ops.read(ops.query().whereIn('hash', hashes).where('is_internal', false));
  for (const r of internal) {
    let best: ExplorerRow | undefined;
    for (const o of outer) {
      if (o.hash !== r.hash || o.height !== r.height || (o.op_n as number) > (r.op_n as number)) continue;
      if (!best || (o.op_n as number) > (best.op_n as number)) best = o;
    }
    if (best?.sender != null) out.set(r, best.sender as string);
  }
  return out;
}
