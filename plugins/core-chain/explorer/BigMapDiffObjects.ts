import { isPrim, michelineFromHex, isRecord } from '../../../framework';

export interface BigMapDiffObject {
  action: 'update' | 'remove' | 'copy' | 'alloc';
  /** Null for Athens-era diffs, which carried no id. */
  bigmap_id: number | null;
  key?: unknown;
  value?: unknown;
  source_big_map?: number;
  key_type?: unknown;
  value_type?: unknown;
}

/**
 * The op table's `big_map_diff` (one binary Micheline sequence of `Pair <id> (Pair "<action>"
 * <payload>)`, see core-chain's bigMapDiffBytes) as a list of updates with Micheline keys, values
 * and types; undefined when the bytes are not in that shape.
 */
export function bigMapDiffObjects(hex: string | null): BigMapDiffObject[] | undefined {
  const items = michelineFromHex(hex);
  if (!Array.isArray(items)) return undefined;
  const out: BigMapDiffObject[] = [];
  for (const item of items) {
    const [id, rest] = pair(item) ?? [];
    const [action, payload] = pair(rest) ?? [];
    const name = isRecord(action) ? action.string : undefined;
    const bigmapId = isInt(id) ? Number(id.int) : null;
    switch (name) {
      case 'update': {
        const [key, some] = pair(payload) ?? [];
        out.push({ action: 'update', bigmap_id: bigmapId, key, value: isPrim(some) ? some.args?.[0] : undefined });
        break;
      }
      case 'remove': {
        const kv = pair(payload);
        out.push(
          kv ? { action: 'remove', bigmap_id: bigmapId, key: kv[0] } : { action: 'remove', bigmap_id: bigmapId },
        );
        break;
      }
      case 'copy':
        out.push({
          action: 'copy',
          bigmap_id: bigmapId,
          ...(isInt(payload) ? { source_big_map: Number(payload.int) } : {}),
        });
        break;
      case 'alloc': {
        const [keyType, valueType] = pair(payload) ?? [];
        out.push({ action: 'alloc', bigmap_id: bigmapId, key_type: keyType, value_type: valueType });
        break;
      }
      default:
        return undefined;
    }
  }
  return out;
}

function pair(node: unknown): [unknown, unknown] | undefined {
  return isPrim(node) && node.prim === 'Pair' && node.args?.length === 2 ? [node.args[0], node.args[1]] : undefined;
}

function isInt(v: unknown): v is { int: string } {
  return isRecord(v) && typeof v.int === 'string';
}
