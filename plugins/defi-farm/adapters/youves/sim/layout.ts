import { annotated, type Micheline, pair, prim } from '../../../../../framework/sandbox/extension';

/**
 * SmartPy's default record layout: fields sorted by name, laid out as a balanced binary tree (the
 * first ⌊n/2⌋ fields on the left). The Youves contracts are SmartPy, so their storages and records
 * have this shape; the models render types and values with it.
 */
export function tree<T>(items: readonly T[], node: (l: T, r: T) => T): T {
  if (items.length === 1) return items[0];
  const mid = Math.floor(items.length / 2);
  return node(tree(items.slice(0, mid), node), tree(items.slice(mid), node));
}

/** The record type of `fields` (name → type, annotated `%name`). */
export function recordT(fields: Record<string, Micheline>): Micheline {
  const sorted = Object.keys(fields).sort();
  return tree(
    sorted.map((k) => annotated(fields[k], `%${k}`)),
    (l, r) => prim('pair', [l, r]),
  );
}

/** The record value of `fields` in the same layout as recordT. */
export function record(fields: Record<string, Micheline>): Micheline {
  const sorted = Object.keys(fields).sort();
  return tree(
    sorted.map((k) => fields[k]),
    (l, r) => pair(l, r),
  );
}
