/**
 * Structural signature of JSON values: every key path mapped to the set of JSON types seen there.
 * Array elements share the path `[]`. Micheline values (whose shape is the contract's, not the node's)
 * are recorded as the opaque type `micheline`.
 */
export type Signature = Map<string, Set<string>>;

const MICHELINE_KEYS = new Set([
  'value',
  'storage',
  'key',
  'key_type',
  'value_type',
  'code',
  'type',
  'payload',
  'with',
  'ticket_contents',
  'ticket_ty',
  'content',
  'content_type',
]);

export function typeOf(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  return typeof v;
}

export function addSignature(sig: Signature, value: unknown, path = ''): Signature {
  const add = (p: string, t: string) => {
    let s = sig.get(p);
    if (!s) sig.set(p, (s = new Set()));
    s.add(t);
  };
  const key = path.split('.').pop() ?? '';
  if (path && MICHELINE_KEYS.has(key) && (typeof value === 'object' || key !== 'type')) {
    add(path, 'micheline');
    return sig;
  }
  add(path || '$', typeOf(value));
  if (Array.isArray(value)) for (const item of value) addSignature(sig, item, `${path}[]`);
  else if (value && typeof value === 'object')
    for (const [k, v] of Object.entries(value)) addSignature(sig, v, path ? `${path}.${k}` : k);
  return sig;
}

export function signatureOf(values: unknown[]): Signature {
  const sig: Signature = new Map();
  for (const v of values) addSignature(sig, v);
  return sig;
}
