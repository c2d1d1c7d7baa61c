/**
 * Why: the mainnet SpicySwap pair's Michelson types, shipped with the adapter so a pair is read the
 * same with or without a node. No published pair source was found; the types are rebuilt from a
 * recorded mainnet group (`fixtures/defi/temple/wtz-arbitraging.json`, pair
 * KT1HHZnspZoRZgtFns5LHYHFkXgQ1WGPrxFr: its storage after each internal call, in optimized Micheline,
 * and the parameters of its calls). Field names come from:
 * - `token0`, `token1` (`fa2_address`, `token_id`), `reserve0`, `reserve1`: third-party readers of the
 *   pair storage, e.g. f-finance/arbuinos-typescript
 *   src/dexes/spicy-swap/interfaces/spicy-swap.contract-storage-abstraction.interface.ts @ f5a727dab86e
 *   (and the token layout of the router's own `tokenIn`/`tokenOut`, pytezos fixture);
 * - `price_ts_last`, `reserve0`, `reserve1`, `total_liquidity`: the router's `reserves_callback` type
 *   (fixtures/defi/pytezos/spicyswap_router_…/__entrypoints__.json, pytezos @ da7229c4c4e5), which is
 *   what the pair's `get_reserves` answers.
 * Every other name below is ours (marked "unconfirmed"): the recording shows the value, not its name.
 */
import type { TypeExpr } from '../knownCode';

const t = (prim: string, annot?: string, ...args: unknown[]) => ({
  prim,
  ...(annot ? { annots: [annot] } : {}),
  ...(args.length ? { args } : {}),
});
const pair = (a: unknown, b: unknown, annot?: string) => t('pair', annot, a, b);
const nat = (annot?: string) => t('nat', annot);
const optionNat = (annot: string) => t('option', annot, t('nat'));
/** A big map whose key and value types the recording does not show (only its id is read). */
const bigMap = (annot: string) => t('big_map', annot, t('bytes'), t('bytes'));
const token = (annot: string) => pair(t('address', '%fa2_address'), optionNat('%token_id'), annot);

/**
 * `start_swap`: (to, amount0Out), (amount1Out, option nat). Names unconfirmed (Uniswap v2's); the
 * last is None in the recording, and the pair keeps its first asked balance in that slot.
 */
export const START_SWAP = pair(
  pair(t('address', '%_to'), nat('%amount0Out')),
  pair(nat('%amount1Out'), optionNat('%balance0')),
);

/** The swap pending between `start_swap` and `finalize_action`: the call, the balances asked, a step (unconfirmed). */
const STEP = t('or', '%step', t('or', undefined, t('unit'), t('unit')), t('unit'));
const PENDING = pair(START_SWAP, pair(optionNat('%balance1'), STEP));

/** The pair's storage as recorded (a right comb of nested pairs); big maps and unnamed values unconfirmed. */
export const PAIR_STORAGE = pair(
  pair(
    pair(
      pair(
        pair(pair(bigMap('%big_map_0'), bigMap('%big_map_1')), pair(bigMap('%big_map_2'), bigMap('%big_map_3'))),
        bigMap('%big_map_4'),
      ),
      pair(t('option', '%pending', PENDING), t('address', '%admin')),
    ),
    pair(
      pair(bigMap('%big_map_5'), nat('%price0_cumulative_last')),
      pair(nat('%price1_cumulative_last'), t('timestamp', '%price_ts_last')),
    ),
  ),
  pair(pair(pair(nat('%reserve0'), nat('%reserve1')), pair(nat('%k_last'), token('%token0'))), token('%token1')),
);

/** What `get_reserves` answers (the router's `reserves_callback` parameter, mainnet type). */
export const RESERVES_ANSWER = pair(
  pair(t('timestamp', '%price_ts_last'), nat('%reserve0')),
  pair(nat('%reserve1'), nat('%total_liquidity')),
);

/** Entrypoints every real pair has (seen called in the recording); the pair is also an FA2 token. */
export const PAIR_ENTRYPOINTS = [
  'get_reserves',
  'start_swap',
  'balance_callback',
  'finalize_action',
  'transfer',
  'balance_of',
] as const;

/**
 * SpicySwap's mainnet router (also the factory that originates the pair contracts) and the types of its calls
 * below, the same as the router's recorded entrypoints (pytezos fixture `spicyswap_router_…/__entrypoints__.json`,
 * test/defi-dex/adapters/spicy.test.ts).
 */
export const SPICY_ROUTER = 'KT1PwoZxyv4XkPEGnTqWYvjA1UYiPTgAGyqL';

const leaf = (prim: string, annot?: string): TypeExpr => (annot ? { prim, annots: [annot] } : { prim });
const pairOf = (args: TypeExpr[], annot?: string): TypeExpr =>
  annot ? { prim: 'pair', args, annots: [annot] } : { prim: 'pair', args };
/** A Spicy token: an FA2 contract and its id, or an FA1.2 contract with no id. */
const routerToken = (annot: string): TypeExpr =>
  pairOf([leaf('address', '%fa2_address'), { prim: 'option', args: [leaf('nat')], annots: ['%token_id'] }], annot);
const routerSwap = (amountIn: string, amountOut: string): TypeExpr =>
  pairOf([
    pairOf([
      pairOf([leaf('address', '%_to'), leaf('nat', amountIn)]),
      leaf('nat', amountOut),
      leaf('timestamp', '%deadline'),
    ]),
    routerToken('%tokenIn'),
    routerToken('%tokenOut'),
  ]);
/** The swaps' argument: exact input (`swap_exact_for_tokens`, `fin_exact_for_tokens`)… */
export const ROUTER_SWAP_EXACT_IN = routerSwap('%amountIn', '%amountOutMin');
/** …and exact output (`swap_tokens_for_exact`, `fin_tokens_for_exact`). */
export const ROUTER_SWAP_EXACT_OUT = routerSwap('%amountInMax', '%amountOut');
/** `add_liquidity_route`, `finalize_add_liquidity`. */
export const ROUTER_ADD = pairOf([
  pairOf([
    pairOf([leaf('address', '%_to'), leaf('nat', '%amount0Desired')]),
    leaf('nat', '%amount0Min'),
    leaf('nat', '%amount1Desired'),
  ]),
  pairOf([leaf('nat', '%amount1Min'), leaf('timestamp', '%deadline')]),
  routerToken('%token0'),
  routerToken('%token1'),
]);
/** `remove_liquidity_route`, `finalize_remove_liquidity`. */
export const ROUTER_REMOVE = pairOf([
  pairOf([
    pairOf([leaf('address', '%_to'), leaf('nat', '%amount0Min')]),
    leaf('nat', '%amount1Min'),
    leaf('timestamp', '%deadline'),
  ]),
  pairOf([leaf('nat', '%liquidity'), routerToken('%token0')]),
  routerToken('%token1'),
]);

/**
 * The router's user calls and their finalize callbacks (the router asks the pair's reserves, then
 * finishes in a `fin_*`/`finalize_*` call of its own), with the mainnet parameter types: a call that
 * reaches a pair is read with them whatever script the indexer knows for the router.
 */
export const ROUTER_ENTRYPOINTS: Readonly<Record<string, TypeExpr>> = {
  swap_exact_for_tokens: ROUTER_SWAP_EXACT_IN,
  fin_exact_for_tokens: ROUTER_SWAP_EXACT_IN,
  swap_tokens_for_exact: ROUTER_SWAP_EXACT_OUT,
  fin_tokens_for_exact: ROUTER_SWAP_EXACT_OUT,
  add_liquidity_route: ROUTER_ADD,
  finalize_add_liquidity: ROUTER_ADD,
  remove_liquidity_route: ROUTER_REMOVE,
  finalize_remove_liquidity: ROUTER_REMOVE,
};
