import type { BigMapDiff, SaplingDiff } from '../../framework';
import { isPrim } from '../../framework';

/** The two args of a pair type or value; comb pairs (`pair a b c`, `Pair a b c`, `{a; b; c}`) nest to the right. */
function pairArgs(node: unknown): [unknown, unknown] | undefined {
  const prim = isPrim(node) && (node.prim === 'pair' || node.prim === 'Pair') ? node : undefined;
  const args = Array.isArray(node) ? node : prim?.args;
  if (!args || args.length < 2) return undefined;
  if (args.length === 2) return [args[0], args[1]];
  return [args[0], prim ? { prim: prim.prim, args: args.slice(1) } : args.slice(1)];
}

/**
 * A contract's storage as the chain keeps it after origination: the big map and sapling state
 * literals of the initial storage replaced by the ids the origination allocated (or copied into).
 * The protocol numbers fresh lazy storages in the order it meets them in the value, left to right,
 * so the n-th one met takes the n-th smallest new id of its kind. Unchanged when the numbers do
 * not match (an unreadable type, or a receipt without the diffs).
 */
export function withLazyStorageIds(
  storageType: unknown,
  storage: unknown,
  bigMaps: readonly BigMapDiff[],
  saplings: readonly SaplingDiff[],
): unknown {
  const fresh = (ids: Array<number | undefined>): number[] =>
    ids.filter((id): id is number => id !== undefined && id >= 0).sort((a, b) => a - b);
  const queues: Record<string, number[]> = {
    big_map: fresh(bigMaps.filter((d) => d.action === 'alloc' || d.action === 'copy').map((d) => d.bigMapId)),
    sapling_state: fresh(saplings.filter((d) => d.action === 'alloc' || d.action === 'copy').map((d) => d.saplingId)),
  };
  const counts: Record<string, number> = { big_map: 0, sapling_state: 0 };
  const walk = (type: unknown, value: unknown): unknown => {
    if (!isPrim(type)) return value;
    switch (type.prim) {
      case 'big_map':
      case 'sapling_state': {
        const id = queues[type.prim][counts[type.prim]++];
        // A value that is already an id (a copy of an existing big map) names it already.
        return id === undefined || (typeof value === 'object' && value !== null && 'int' in value)
          ? value
          : { int: String(id) };
      }
      case 'pair': {
        const t = pairArgs(type);
        const prim = isPrim(value) && value.prim === 'Pair' ? value : undefined;
        const seq = Array.isArray(value);
        const args = seq ? value : prim?.args;
        if (!t || !args || args.length < 2) return value;
        const first = walk(t[0], args[0]);
        // The rest of a comb value is walked as the pair it stands for, then spread back (same shape).
        const restValue = args.length === 2 ? args[1] : seq ? args.slice(1) : { prim: 'Pair', args: args.slice(1) };
        const rest = walk(t[1], restValue);
        // A comb's rest comes back in the shape it went in (walk keeps shapes).
        const restArgs =
          args.length === 2 ? [rest] : Array.isArray(rest) ? rest : isPrim(rest) ? (rest.args ?? []) : [];
        return prim ? { ...prim, args: [first, ...restArgs] } : [first, ...restArgs];
      }
      case 'option':
        return isPrim(value) && value.prim === 'Some'
          ? { ...value, args: [walk(type.args?.[0], value.args?.[0])] }
          : value;
      case 'or':
        if (!isPrim(value)) return value;
        if (value.prim === 'Left') return { ...value, args: [walk(type.args?.[0], value.args?.[0])] };
        if (value.prim === 'Right') return { ...value, args: [walk(type.args?.[1], value.args?.[0])] };
        return value;
      default:
        return value;
    }
  };
  const result = walk(storageType, storage);
  const used = counts.big_map === queues.big_map.length && counts.sapling_state === queues.sapling_state.length;
  return used ? result : storage;
}
