import { type BigMapDiff, type BigMapValue, TypedValue } from '../../../../framework';
import type { DexPoolDecl, DexSupply, DexTokenRef } from '../../core/DexAdapter';
import type { QuipuStableDex4factoryStorage } from './types.gen';

export const ENTITY = 'quipu_stable';
/** The contract's fee denominator: `lp_f`, `stakers_f`, `ref_f` (and the factory's dev fee) are parts of 10^10. */
export const FEE_DENOMINATOR = 10_000_000_000n;

/*
 * Why: the dex keeps its pools and token lists in big maps (`pools`, `tokens`), so a call's storage
 * names only their ids; what a call did to a pool is the `pools[pool_id]` update in its big-map diff.
 * These are the mainnet value types of both maps (quipuswap-stable-core v0.5.x, dex and dex4factory).
 */
const t = (prim: string, annot?: string, ...args: unknown[]): object => ({
  prim,
  ...(annot ? { annots: [annot] } : {}),
  ...(args.length ? { args } : {}),
});
const comb = (...fields: object[]): object =>
  fields.length === 1 ? fields[0] : t('pair', undefined, fields[0], comb(...fields.slice(1)));
const TOKEN_T = t('or', undefined, t('address', '%fa12'), {
  ...comb(t('address', '%token_address'), t('nat', '%token_id')),
  annots: ['%fa2'],
});
/** `tokens[pool_id]`: token index → token. */
export const TOKENS_T = t('map', undefined, t('nat'), TOKEN_T);
/** `pools[pool_id]`. */
export const POOL_T = comb(
  t('nat', '%initial_A_f'),
  t('timestamp', '%initial_A_time'),
  t('nat', '%future_A_f'),
  t('timestamp', '%future_A_time'),
  t(
    'map',
    '%tokens_info',
    t('nat'),
    comb(t('nat', '%rate_f'), t('nat', '%precision_multiplier_f'), t('nat', '%reserves')),
  ),
  { ...comb(t('nat', '%lp_f'), t('nat', '%stakers_f'), t('nat', '%ref_f')), annots: ['%fee'] },
  {
    ...comb(
      t('map', '%accumulator_f', t('nat'), t('nat')),
      t('map', '%total_fees', t('nat'), t('nat')),
      t('nat', '%total_staked'),
    ),
    annots: ['%staker_accumulator'],
  },
  t('nat', '%total_supply'),
);

/** The two big maps' values as the shipped dex4factory types decode them (`types.gen.ts`). */
type Maps = QuipuStableDex4factoryStorage['storage'];
const POOL = new TypedValue<BigMapValue<Maps['pools']>>(POOL_T);
const TOKENS = new TypedValue<BigMapValue<Maps['tokens']>>(TOKENS_T);
const NAT = new TypedValue<bigint>(t('nat'));

/** A big map key of type nat (a pool id), undefined when it is not one. */
export const natKey = (key: unknown): bigint | undefined => NAT.decode(key);

/** The pool fields the adapter reads. */
export interface StablePool {
  /** Reserves in token index order. */
  readonly reserves: readonly bigint[];
  readonly totalSupply: bigint;
  readonly fee: { readonly lp: bigint; readonly stakers: bigint; readonly ref: bigint };
  /** QUIPU staked in the pool: without stakers their fee share stays with the liquidity providers. */
  readonly totalStaked: bigint;
}

/** The big map ids of a dex storage (`storage.{tokens, pools}`), or undefined when it is not one. */
export function dexMaps(storage: unknown): { tokens: number; pools: number } | undefined {
  const s = (storage as { storage?: { tokens?: unknown; pools?: unknown } } | undefined)?.storage;
  return typeof s?.tokens === 'number' && typeof s.pools === 'number'
    ? { tokens: s.tokens, pools: s.pools }
    : undefined;
}

/** `pools[pool_id]` as a raw value decodes to a pool (indexes must run 0..n−1 with 2 to 4 tokens). */
export function stablePool(raw: unknown): StablePool | undefined {
  const p = POOL.decode(raw);
  const info = p?.tokens_info;
  if (!p || !info || info.size < 2 || info.size > 4) return undefined;
  const reserves: bigint[] = [];
  for (let i = 0n; i < info.size; i++) {
    const r = info.get(i)?.reserves;
    if (r === undefined) return undefined;
    reserves.push(r);
  }
  const { fee } = p;
  return {
    reserves,
    totalSupply: p.total_supply,
    fee: { lp: fee.lp_f, stakers: fee.stakers_f, ref: fee.ref_f },
    totalStaked: p.staker_accumulator.total_staked,
  };
}

/** `tokens[pool_id]` as a raw value decodes to the pool's tokens in index order. */
export function poolTokens(raw: unknown): DexTokenRef[] | undefined {
  const m = TOKENS.decode(raw);
  if (!m || m.size < 2 || m.size > 4) return undefined;
  const out: DexTokenRef[] = [];
  for (let i = 0n; i < m.size; i++) {
    const v = m.get(i);
    if (v === undefined) return undefined;
    out.push(
      'fa12' in v
        ? { standard: 'fa1.2', contract: v.fa12 }
        : { standard: 'fa2', contract: v.fa2.token_address, tokenId: v.fa2.token_id },
    );
  }
  return out;
}

/** The value a big-map diff set for `key` (a nat) in map `id`, raw; undefined when the diff did not set it. */
export function updatedValue(diffs: readonly BigMapDiff[], id: number, key: bigint): unknown {
  for (const d of [...diffs].reverse()) {
    if (d.action === 'update' && d.bigMapId === id && NAT.decode(d.key) === key) return d.value;
  }
  return undefined;
}

/** A fee of 10^10 parts in basis points as a decimal string (`7000000` → `"7"`, `500000` → `"0.5"`). */
export function feeBps(f: bigint): string {
  const whole = f / 1_000_000n;
  const frac = (f % 1_000_000n).toString().padStart(6, '0').replace(/0+$/, '');
  return frac ? `${whole}.${frac}` : String(whole);
}

/** The pool's own fees (lp + stakers + referral); the factory's dev fee comes on top (see the docs). */
export const poolFeesBps = (p: StablePool): string => feeBps(p.fee.lp + p.fee.stakers + p.fee.ref);

export function declaration(
  contract: string,
  pairId: number,
  tokens: readonly DexTokenRef[],
  p: StablePool,
  creator?: string,
): DexPoolDecl {
  return {
    contract,
    pairId,
    entity: ENTITY,
    tokens,
    lp: { standard: 'fa2', contract, tokenId: BigInt(pairId) },
    feesBps: poolFeesBps(p),
    creator,
  };
}

export const supplyOf = (p: StablePool): DexSupply => ({
  reserves: p.reserves,
  lpSupply: p.totalSupply,
  feesBps: poolFeesBps(p),
});
