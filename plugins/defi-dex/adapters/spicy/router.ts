import { plainValue } from '../../../../framework';

/** SpicySwap's mainnet router (also the factory that originates the pair contracts). */
export const SPICY_ROUTER = 'KT1PwoZxyv4XkPEGnTqWYvjA1UYiPTgAGyqL';

const t = (prim: string, annot?: string) => (annot ? { prim, annots: [annot] } : { prim });
const pairOf = (args: unknown[], annot?: string) =>
  annot ? { prim: 'pair', args, annots: [annot] } : { prim: 'pair', args };
/** A Spicy token: an FA2 contract and its id, or an FA1.2 contract with no id. */
const token = (annot: string) =>
  pairOf([t('address', '%fa2_address'), { prim: 'option', args: [t('nat')], annots: ['%token_id'] }], annot);
const swap = (amountIn: string, amountOut: string) =>
  pairOf([
    pairOf([pairOf([t('address', '%_to'), t('nat', amountIn)]), t('nat', amountOut), t('timestamp', '%deadline')]),
    token('%tokenIn'),
    token('%tokenOut'),
  ]);
const add = pairOf([
  pairOf([
    pairOf([t('address', '%_to'), t('nat', '%amount0Desired')]),
    t('nat', '%amount0Min'),
    t('nat', '%amount1Desired'),
  ]),
  pairOf([t('nat', '%amount1Min'), t('timestamp', '%deadline')]),
  token('%token0'),
  token('%token1'),
]);
const remove = pairOf([
  pairOf([
    pairOf([t('address', '%_to'), t('nat', '%amount0Min')]),
    t('nat', '%amount1Min'),
    t('timestamp', '%deadline'),
  ]),
  pairOf([t('nat', '%liquidity'), token('%token0')]),
  token('%token1'),
]);

/**
 * The router's user calls and their finalize callbacks (the router asks the pair's reserves, then
 * finishes in a `fin_*`/`finalize_*` call of its own), with the mainnet parameter types: a call that
 * reaches a pair is read with them whatever script the indexer knows for the router.
 */
export const ROUTER_ENTRYPOINTS: Readonly<Record<string, unknown>> = {
  swap_exact_for_tokens: swap('%amountIn', '%amountOutMin'),
  fin_exact_for_tokens: swap('%amountIn', '%amountOutMin'),
  swap_tokens_for_exact: swap('%amountInMax', '%amountOut'),
  fin_tokens_for_exact: swap('%amountInMax', '%amountOut'),
  add_liquidity_route: add,
  finalize_add_liquidity: add,
  remove_liquidity_route: remove,
  finalize_remove_liquidity: remove,
};

/** The `_to` (recipient) of a router call given as raw Micheline, read with the router's types. */
export function routerRecipient(entrypoint: string | undefined, raw: unknown): string | undefined {
  const type = entrypoint ? ROUTER_ENTRYPOINTS[entrypoint] : undefined;
  const v = type ? (plainValue(type, raw) as { _to?: unknown } | undefined) : undefined;
  return typeof v?._to === 'string' ? v._to : undefined;
}
