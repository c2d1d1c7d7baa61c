/**
 * Orders two block fitnesses like the node: more elements wins, then element by element,
 * longer bytes first, then bytewise (hex strings of equal length compare as bytes). 0 when equal.
 */
export function compareFitness(a: readonly string[], b: readonly string[]): number {
  if (a.length !== b.length) return a.length - b.length;
  for (let i = 0; i < a.length; i++) {
    const x = a[i].toLowerCase();
    const y = b[i].toLowerCase();
    if (x.length !== y.length) return x.length - y.length;
    if (x !== y) return x < y ? -1 : 1;
  }
  return 0;
}
