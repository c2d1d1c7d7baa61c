/**
 * Builders of RPC operation contents for recorded pool calls that come without their internal
 * operations (the pytezos recordings keep parameters and storage only): the external call and the
 * internal operations a pool's code emits, in the RPC's shape, so BlockNormalizer reads them as it
 * reads a real block.
 */
type Json = Record<string, unknown>;
const str = (s: string) => ({ string: s });
const int = (n: bigint) => ({ int: String(n) });
const pair = (...args: unknown[]): Json => ({ prim: 'Pair', args });

/** A recorded call (parameters, storage after, big map diffs) as an applied external transaction. */
export function externalCall(
  source: string,
  destination: string,
  counter: number,
  recorded: { parameters: unknown; storage: unknown; lazy_storage_diff?: unknown },
  amount = 0n,
  internals: Json[] = [],
): Json {
  return {
    kind: 'transaction',
    source,
    fee: '1000',
    counter: String(counter),
    gas_limit: '100000',
    storage_limit: '1000',
    amount: String(amount),
    destination,
    parameters: recorded.parameters,
    metadata: {
      balance_updates: [],
      operation_result: {
        status: 'applied',
        storage: recorded.storage,
        lazy_storage_diff: recorded.lazy_storage_diff ?? [],
        consumed_milligas: '1000',
        storage_size: '1000',
      },
      internal_operation_results: internals.map((o, nonce) => ({ ...o, nonce })),
    },
  };
}

/** An internal call (nonce set by externalCall); `storage` for a call whose storage the test knows. */
export function internalCall(
  source: string,
  destination: string,
  entrypoint: string,
  value: unknown,
  storage?: unknown,
  amount = 0n,
): Json {
  return {
    kind: 'transaction',
    source,
    amount: String(amount),
    destination,
    parameters: { entrypoint, value },
    result: { status: 'applied', ...(storage === undefined ? {} : { storage }), consumed_milligas: '1000' },
  };
}

export const tezPayment = (source: string, destination: string, amount: bigint): Json => ({
  kind: 'transaction',
  source,
  amount: String(amount),
  destination,
  result: { status: 'applied', consumed_milligas: '1000' },
});

/** TZIP-7 `transfer (from, (to, value))`. */
export const fa12Transfer = (pool: string, token: string, from: string, to: string, value: bigint) =>
  internalCall(pool, token, 'transfer', pair(str(from), pair(str(to), int(value))));

/** TZIP-12 `transfer [(from_, [(to_, (token_id, amount))])]`. */
export const fa2Transfer = (pool: string, token: string, from: string, to: string, tokenId: bigint, amount: bigint) =>
  internalCall(pool, token, 'transfer', [pair(str(from), [pair(str(to), pair(int(tokenId), int(amount)))])]);

/** A Plenty LP token's `mint`/`burn (address, value)`. */
export const lpCall = (pool: string, lp: string, entrypoint: 'mint' | 'burn', owner: string, value: bigint) =>
  internalCall(pool, lp, entrypoint, pair(str(owner), int(value)));
