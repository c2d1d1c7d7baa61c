import { CatalogRows } from '../../../framework';
import type { OpRead } from '../tables.generated';

/** The op columns that find an outer signer. */
export type OuterRow = Pick<OpRead, 'hash' | 'height' | 'op_n' | 'sender'>;

/**
 * The signer of the operation that caused each internal op row: the sender of the nearest earlier
 * non-internal row of the same group and block. `ops` reads the op table's hash, height, op_n and
 * sender; so must the rows given carry. The rows usually hold their outer rows (an op group is read
 * whole), so the table is asked only for groups they lack, by a lookup made together with concurrent
 * requests' (CatalogRows.batched).
 */
export class OuterSigners {
  private readonly outerRows: (hashes: string[]) => Promise<OuterRow[]>;

  constructor(ops: CatalogRows<OuterRow>) {
    this.outerRows = ops.batched(
      (q, hashes) => q.where(ops.anyOf('hash', hashes)).where('is_internal', false),
      (r) => [r.hash],
      'hash',
    );
  }

  /** Internal rows to their signer's address; rows that are not internal are left out. */
  async of<R extends OuterRow & Pick<OpRead, 'is_internal'>>(rows: readonly R[]): Promise<Map<R, string>> {
    const internal = rows.filter((r) => r.is_internal && r.hash !== null);
    const out = new Map<R, string>();
    if (internal.length === 0) return out;
    let outer: OuterRow[] = rows.filter((r) => !r.is_internal && r.hash !== null);
    const missing = [...new Set(internal.filter((r) => !nearestOuter(r, outer)).flatMap((r) => r.hash ?? []))];
    if (missing.length > 0) outer = [...outer, ...(await this.outerRows(missing))];
    for (const r of internal) {
      const best = nearestOuter(r, outer);
      if (best?.sender != null) out.set(r, best.sender);
    }
    return out;
  }
}

function nearestOuter(r: OuterRow, outer: readonly OuterRow[]): OuterRow | undefined {
  let best: OuterRow | undefined;
  for (const o of outer) {
    if (o.hash !== r.hash || o.height !== r.height || o.op_n > r.op_n) continue;
    if (!best || o.op_n > best.op_n) best = o;
  }
  return best;
}
