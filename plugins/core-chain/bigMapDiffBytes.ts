import type { BigMapDiff } from '../../framework';
import { encodeMicheline } from '../../framework';

const pair = (a: unknown, b: unknown): unknown => ({ prim: 'Pair', args: [a, b] });
const UNIT = { prim: 'Unit' };

/**
 * The op table's `big_map_diff`: one binary Micheline sequence with an element per change,
 * `Pair <id> (Pair "<action>" <payload>)`, where id is the big map id (Unit for Athens diffs without
 * one) and payload is `Pair <key> (Some <value>)` (update), `Pair <key> None` (key removed), `Unit`
 * (map removed), `<source id>` (copy) or `Pair <key type> <value type>` (alloc). Readable back with
 * any Micheline decoder (UNPACK of the bytes prefixed with 0x05).
 */
export function bigMapDiffBytes(diffs: readonly BigMapDiff[]): string | null {
  if (diffs.length === 0) return null;
  const items = diffs.map((d) => {
    const id = d.bigMapId === undefined ? UNIT : { int: String(d.bigMapId) };
    let payload: unknown;
    switch (d.action) {
      case 'update':
        payload = pair(d.key, { prim: 'Some', args: [d.value] });
        break;
      case 'remove':
        payload = d.key === undefined ? UNIT : pair(d.key, { prim: 'None' });
        break;
      case 'copy':
        payload = d.sourceBigMapId === undefined ? UNIT : { int: String(d.sourceBigMapId) };
        break;
      case 'alloc':
        payload = pair(d.keyType ?? UNIT, d.valueType ?? UNIT);
        break;
    }
    return pair(id, pair({ string: d.action }, payload));
  });
  return encodeMicheline(items)?.toString('hex') ?? null;
}
