import { CatalogRows, ExplorerRow } from '../../../framework';

/**
 * The signer of the operation that caused each internal op row: the sender of the nearest earlier
 * non-internal row of the same group and block. `ops` reads the op table's hash, height, op_n and
 * sender; so must the rows given carry. The rows usually hold their outer rows (an op group is read
 * whole), so the table is asked only for groups they lack, by a lookup made together with concurrent
 * requests' (CatalogRows.batched).
 */
export class OuterSigners {
  private readonly outerRows: (hashes: string[]) => Promise<ExplorerRow[]>;

  constructor(ops: CatalogRows) {
    this.outerRows = ops.batched(
      (q, hashes) => q.where(ops.anyOf('hash', hashes)).where('is_internal', false),
      (r) => [r.hash],
    );
  }

  /** Internal rows to their signer's address; rows that are not internal are left out. */
  async of(rows: readonly ExplorerRow[]): Promise<Map<ExplorerRow, string>> {
    const internal = rows.filter((r) => r.is_internal === true && r.hash !== null);
    const out = new Map<ExplorerRow, string>();
    if (internal.length === 0) return out;
    let outer = rows.filter((r) => r.is_internal === false && r.hash !== null);
    const missing = [...new Set(internal.filter((r) => !nearestOuter(r, outer)).map((r) => r.hash as string))];
    if (missing.length > 0) outer = [...outer, ...(await this.outerRows(missing))];
    for (const r of internal) {
      const best = nearestOuter(r, outer);
      if (best?.sender != null) out.set(r, best.sender as string);
    }
    return out;
  }
}

function nearestOuter(r: ExplorerRow, outer: readonly ExplorerRow[]): ExplorerRow | undefined {
  let best: ExplorerRow | undefined;
  for (const o of outer) {
    if (o.hash !== r.hash || o.height !== r.height || (o.op_n as number) > (r.op_n as number)) continue;
    if (!best || (o.op_n as number) > (best.op_n as number)) best = o;
  }
  return best;
}
