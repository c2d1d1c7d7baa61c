import {
  type AccountBook,
  addressBytes,
  bool,
  type CallContext,
  ContentFailure,
  type ContractModel,
  entrypoints,
  type Fa12Token,
  int,
  type LazyStorageDiff,
  type Micheline,
  NULL_ADDRESS,
  pair,
  pairT,
  PositionBook,
  prim,
  script,
  scriptRejected,
  str,
  tAddress,
  tBigMap,
  tBytes,
  tNat,
  tString,
  tTimestamp,
} from '../../../../../framework/sandbox/extension';
import {
  balanced,
  invariant,
  type MathFees,
  type MathToken,
  normalized,
  sliceFee,
  swapOut,
  withdrawOne,
} from './stableMath';

/** The factory's dev fee (its `dev_fee` view), as the mainnet factory's storage holds it. */
const DEV_FEE_F = 4_500_000n;

interface StablePoolState {
  ampF: bigint;
  tokens: MathToken[];
  fee: { lp: bigint; stakers: bigint; ref: bigint };
  totalSupply: bigint;
}

interface DexState {
  maps: Record<(typeof MAPS)[number], number>;
  pools: StablePoolState[];
}

export interface PoolSpec {
  tokens: Array<{ token: Fa12Token; rate: bigint; precision: bigint }>;
  ampF: bigint;
  fee: { lp: bigint; stakers: bigint; ref: bigint };
}

const t = (prim_: string, annot?: string, ...args: Micheline[]) =>
  prim(prim_, args.length ? args : undefined, annot ? [annot] : undefined);
/** A type node with a field annotation of its own. */
function named(type: Micheline, annot: string): Micheline {
  if (Array.isArray(type) || !('prim' in type)) throw new Error('quipuswap-stable: not a type node');
  return { ...type, annots: [annot] };
}
const TOKEN_T = t(
  'or',
  undefined,
  tAddress('%fa12'),
  named(pairT(tAddress('%token_address'), tNat('%token_id')), '%fa2'),
);
const OPT_ADDRESS = (a: string) => t('option', a, tAddress());
const DEADLINE = tTimestamp('%deadline');
const LEDGER_KEY = pairT(tAddress(), tNat());
const POOL_T = pairT(
  tNat('%initial_A_f'),
  tTimestamp('%initial_A_time'),
  tNat('%future_A_f'),
  tTimestamp('%future_A_time'),
  t('map', '%tokens_info', tNat(), pairT(tNat('%rate_f'), tNat('%precision_multiplier_f'), tNat('%reserves'))),
  named(pairT(tNat('%lp_f'), tNat('%stakers_f'), tNat('%ref_f')), '%fee'),
  named(
    pairT(t('map', '%accumulator_f', tNat(), tNat()), t('map', '%total_fees', tNat(), tNat()), tNat('%total_staked')),
    '%staker_accumulator',
  ),
  tNat('%total_supply'),
);
/** The big maps of the mainnet storage, in order (inner record, then the outer lambdas and metadata). */
const MAPS = [
  'tokens',
  'pool_to_id',
  'pools',
  'ledger',
  'allowances',
  'token_metadata',
  'dev_rewards',
  'referral_rewards',
  'stakers_balance',
  'metadata',
  'admin_lambdas',
  'dex_lambdas',
  'token_lambdas',
] as const;
const MAP_TYPES: Record<(typeof MAPS)[number], [Micheline, Micheline]> = {
  tokens: [tNat(), t('map', undefined, tNat(), TOKEN_T)],
  pool_to_id: [tBytes(), tNat()],
  pools: [tNat(), POOL_T],
  ledger: [LEDGER_KEY, tNat()],
  allowances: [LEDGER_KEY, t('set', undefined, tAddress())],
  token_metadata: [tNat(), pairT(tNat('%token_id'), t('map', '%token_info', tString(), tBytes()))],
  dev_rewards: [TOKEN_T, tNat()],
  referral_rewards: [pairT(tAddress(), TOKEN_T), tNat()],
  stakers_balance: [
    LEDGER_KEY,
    pairT(tNat('%balance'), t('map', '%earnings', tNat(), pairT(tNat('%reward_f'), tNat('%former_f')))),
  ],
  metadata: [tString(), tBytes()],
  admin_lambdas: [tNat(), tBytes()],
  dex_lambdas: [tNat(), tBytes()],
  token_lambdas: [tNat(), tBytes()],
};
const map = (k: (typeof MAPS)[number], annot: string) => tBigMap(MAP_TYPES[k][0], MAP_TYPES[k][1], annot);

const STORAGE = pairT(
  named(
    pairT(
      tAddress('%admin'),
      tAddress('%default_referral'),
      t('set', '%managers', tAddress()),
      tNat('%pools_count'),
      map('tokens', '%tokens'),
      map('pool_to_id', '%pool_to_id'),
      map('pools', '%pools'),
      map('ledger', '%ledger'),
      map('allowances', '%allowances'),
      map('token_metadata', '%token_metadata'),
      map('dev_rewards', '%dev_rewards'),
      map('referral_rewards', '%referral_rewards'),
      map('stakers_balance', '%stakers_balance'),
      named(pairT(tAddress('%token_address'), tNat('%token_id')), '%quipu_token'),
      tAddress('%factory_address'),
      t('bool', '%started'),
    ),
    '%storage',
  ),
  map('metadata', '%metadata'),
  map('admin_lambdas', '%admin_lambdas'),
  map('dex_lambdas', '%dex_lambdas'),
  map('token_lambdas', '%token_lambdas'),
);

/** The dex's user entrypoints with their mainnet argument types (admin and view entrypoints left out). */
const PARAMETER = entrypoints(
  ['claim_referral', pairT(named(TOKEN_T, '%token'), tNat('%amount'))],
  [
    'divest',
    pairT(
      tNat('%pool_id'),
      t('map', '%min_amounts_out', tNat(), tNat()),
      tNat('%shares'),
      DEADLINE,
      OPT_ADDRESS('%receiver'),
    ),
  ],
  [
    'divest_imbalanced',
    pairT(
      tNat('%pool_id'),
      t('map', '%amounts_out', tNat(), tNat()),
      tNat('%max_shares'),
      DEADLINE,
      OPT_ADDRESS('%receiver'),
      OPT_ADDRESS('%referral'),
    ),
  ],
  [
    'divest_one_coin',
    pairT(
      tNat('%pool_id'),
      tNat('%shares'),
      tNat('%token_index'),
      tNat('%min_amount_out'),
      DEADLINE,
      OPT_ADDRESS('%receiver'),
      OPT_ADDRESS('%referral'),
    ),
  ],
  [
    'invest',
    pairT(
      tNat('%pool_id'),
      tNat('%shares'),
      t('map', '%in_amounts', tNat(), tNat()),
      DEADLINE,
      OPT_ADDRESS('%receiver'),
      OPT_ADDRESS('%referral'),
    ),
  ],
  [
    'stake',
    t(
      'or',
      undefined,
      named(pairT(tNat('%pool_id'), tNat('%amount')), '%add'),
      named(pairT(tNat('%pool_id'), tNat('%amount')), '%remove'),
    ),
  ],
  [
    'swap',
    pairT(
      tNat('%pool_id'),
      tNat('%idx_from'),
      tNat('%idx_to'),
      tNat('%amount'),
      tNat('%min_amount_out'),
      DEADLINE,
      OPT_ADDRESS('%receiver'),
      OPT_ADDRESS('%referral'),
    ),
  ],
  [
    'transfer',
    t(
      'list',
      undefined,
      pairT(tAddress('%from_'), t('list', '%txs', pairT(tAddress('%to_'), tNat('%token_id'), tNat('%amount')))),
    ),
  ],
);

const NONE = prim('None');
const natMap = (m: ReadonlyMap<number, bigint>): Micheline =>
  [...m.entries()].sort((a, b) => a[0] - b[0]).map(([k, v]) => prim('Elt', [int(k), int(v)]));
const deadline = (call: CallContext) =>
  str(new Date(Date.parse(call.ctx.timestamp) + 20 * 60_000).toISOString().replace('.000Z', 'Z'));

export interface DexCall {
  entrypoint: string;
  value: Micheline;
  grown: number;
}

/**
 * A factory-deployed QuipuSwap StableSwap dex (dex4factory): the mainnet parameter and storage types,
 * pools and token lists in big maps, LP shares in its FA2 ledger (token id = pool id). Reserves move by
 * the contract's invariant math (stableMath.ts) with its fee split: LP fees stay in the reserves, the
 * referral and the factory's dev fees leave them (no QUIPU is staked here, so the stakers' share goes
 * to the LPs). Tokens move through internal FA1.2 transfers in the contract's order.
 */
export class StableDex implements ContractModel {
  readonly role = 'quipuswap_stable' as const;
  readonly service = 'dex';
  readonly code = script(PARAMETER, STORAGE);
  readonly ledger: PositionBook;

  constructor(
    private readonly book: AccountBook,
    readonly address: string,
    readonly specs: readonly PoolSpec[],
    private readonly errorPrefix: string,
  ) {
    this.ledger = new PositionBook(book, () => this.state.maps.ledger, true);
  }

  get state(): DexState {
    return this.book.state<DexState>(this.address);
  }

  pool(id: number): StablePoolState {
    return this.state.pools[id];
  }

  token(id: number, idx: number): Fa12Token {
    return this.specs[id].tokens[idx].token;
  }

  /** Allocates the big maps and lists the pools, empty: their first investor opens them. */
  init(diff: LazyStorageDiff): void {
    const maps = Object.fromEntries(MAPS.map((k) => [k, diff.alloc(...MAP_TYPES[k])])) as DexState['maps'];
    const pools = this.specs.map((s) => ({
      ampF: s.ampF,
      fee: s.fee,
      totalSupply: 0n,
      tokens: s.tokens.map((x) => ({ rate: x.rate, precision: x.precision, reserves: 0n })),
    }));
    this.book.setState<DexState>(this.address, { maps, pools });
    this.specs.forEach((s, id) => {
      diff.update(
        maps.tokens,
        int(id),
        s.tokens.map((x, i) => prim('Elt', [int(i), prim('Left', [addressBytes(x.token.address)])])),
      );
      this.writePool(diff, id);
    });
  }

  storage(): Micheline {
    const m = this.state.maps;
    const inner = pair(
      addressBytes(NULL_ADDRESS),
      addressBytes(NULL_ADDRESS),
      [],
      int(this.specs.length),
      ...(
        [
          'tokens',
          'pool_to_id',
          'pools',
          'ledger',
          'allowances',
          'token_metadata',
          'dev_rewards',
          'referral_rewards',
          'stakers_balance',
        ] as const
      ).map((k) => int(m[k])),
      pair(addressBytes(NULL_ADDRESS), int(0)),
      addressBytes(NULL_ADDRESS),
      bool(true),
    );
    return pair(inner, int(m.metadata), int(m.admin_lambdas), int(m.dex_lambdas), int(m.token_lambdas));
  }

  private fees(id: number): MathFees {
    return { ...this.pool(id).fee, dev: DEV_FEE_F };
  }

  private writePool(diff: LazyStorageDiff, id: number): void {
    const p = this.pool(id);
    const info = p.tokens.map((x, i) => prim('Elt', [int(i), pair(int(x.rate), int(x.precision), int(x.reserves))]));
    const value = pair(
      int(p.ampF),
      int(0),
      int(p.ampF),
      int(0),
      info,
      pair(int(p.fee.lp), int(p.fee.stakers), int(p.fee.ref)),
      pair([], [], int(0)),
      int(p.totalSupply),
    );
    diff.update(this.state.maps.pools, int(id), value);
  }

  private setReserves(id: number, reserves: readonly bigint[], totalSupply: bigint): void {
    const s = this.state;
    const pools = s.pools.map((p, k) =>
      k === id ? { ...p, totalSupply, tokens: p.tokens.map((x, i) => ({ ...x, reserves: reserves[i] })) } : p,
    );
    this.book.setState<DexState>(this.address, { ...s, pools });
  }

  /** `swap`: sells `dx` of token i for token j; the fees are cut from the curve's output. */
  swap(call: CallContext, diff: LazyStorageDiff, user: string, id: number, i: number, j: number, dx: bigint): DexCall {
    const p = this.pool(id);
    const dy = swapOut(p.tokens, i, j, dx, p.ampF);
    const f = sliceFee(dy, this.fees(id), false);
    if (f.out <= 0n || dy >= p.tokens[j].reserves) this.reject('stable swap output out of range');
    const reserves = p.tokens.map((x, k) =>
      k === i ? x.reserves + dx : k === j ? x.reserves - f.out - f.ref - f.dev - f.stakers : x.reserves,
    );
    this.token(id, i).transfer(call, this.address, user, this.address, dx);
    this.token(id, j).transfer(call, this.address, this.address, user, f.out);
    this.setReserves(id, reserves, p.totalSupply);
    this.writePool(diff, id);
    return {
      entrypoint: 'swap',
      value: pair(int(id), int(i), int(j), int(dx), int(f.out), deadline(call), NONE, NONE),
      grown: 0,
    };
  }

  /** The shares `invest` mints for `inputs` and the reserves after it (`add_liq`). */
  private investQuote(id: number, inputs: ReadonlyMap<number, bigint>): { minted: bigint; reserves: bigint[] } {
    const p = this.pool(id);
    const before = p.tokens.map((x) => x.reserves);
    const after = before.map((r, i) => r + (inputs.get(i) ?? 0n));
    const d0 = invariant(normalized(p.tokens), p.ampF);
    const d1 = invariant(normalized(this.withReserves(id, after)), p.ampF);
    if (p.totalSupply === 0n) return { minted: d1, reserves: after };
    const b = balanced(before, d0, after, d1, this.fees(id), false);
    const d2 = invariant(normalized(this.withReserves(id, b.withoutLp)), p.ampF);
    return { minted: (p.totalSupply * (d2 - d0)) / d0, reserves: b.reserves };
  }

  invest(
    call: CallContext,
    diff: LazyStorageDiff,
    user: string,
    id: number,
    inputs: ReadonlyMap<number, bigint>,
  ): DexCall {
    const p = this.pool(id);
    const { minted, reserves } = this.investQuote(id, inputs);
    if (minted <= 0n) this.reject('stable invest mints nothing');
    for (const [i, amount] of [...inputs.entries()].sort((a, b) => b[0] - a[0]))
      if (amount > 0n) this.token(id, i).transfer(call, this.address, user, this.address, amount);
    this.setReserves(id, reserves, p.totalSupply + minted);
    const grown = this.ledger.add(diff, user, minted, id);
    this.writePool(diff, id);
    return {
      entrypoint: 'invest',
      value: pair(int(id), int(minted), natMap(inputs), deadline(call), NONE, NONE),
      grown,
    };
  }

  /** `divest`: burns `shares` for the pro-rata reserves. */
  divest(call: CallContext, diff: LazyStorageDiff, user: string, id: number, shares: bigint): DexCall {
    const p = this.pool(id);
    const out = p.tokens.map((x) => (x.reserves * shares) / p.totalSupply);
    if (out.some((v) => v === 0n)) this.reject('stable divest of dust');
    for (let i = out.length - 1; i >= 0; i--)
      this.token(id, i).transfer(call, this.address, this.address, user, out[i]);
    this.setReserves(
      id,
      p.tokens.map((x, i) => x.reserves - out[i]),
      p.totalSupply - shares,
    );
    this.ledger.add(diff, user, -shares, id);
    this.writePool(diff, id);
    return {
      entrypoint: 'divest',
      value: pair(int(id), natMap(new Map(out.map((v, i) => [i, v]))), int(shares), deadline(call), NONE),
      grown: 0,
    };
  }

  /** `divest_one_coin`: burns `shares` for token i alone; the fee's leaving parts come off its reserve. */
  divestOne(call: CallContext, diff: LazyStorageDiff, user: string, id: number, shares: bigint, i: number): DexCall {
    const p = this.pool(id);
    const f = this.fees(id);
    const { dy, fee } = withdrawOne(p.tokens, p.totalSupply, shares, i, p.ampF, f);
    const all = f.lp + f.stakers + f.ref + f.dev;
    const leaving = (fee * f.dev) / all + (fee * f.ref) / all;
    if (dy <= 0n || dy + leaving >= p.tokens[i].reserves) this.reject('stable one-coin divest out of range');
    this.token(id, i).transfer(call, this.address, this.address, user, dy);
    this.setReserves(
      id,
      p.tokens.map((x, k) => (k === i ? x.reserves - dy - leaving : x.reserves)),
      p.totalSupply - shares,
    );
    this.ledger.add(diff, user, -shares, id);
    this.writePool(diff, id);
    return {
      entrypoint: 'divest_one_coin',
      value: pair(int(id), int(shares), int(i), int(dy), deadline(call), NONE, NONE),
      grown: 0,
    };
  }

  /** `divest_imbalanced`: takes `amounts` out and burns the shares their invariant loss (fees included) is worth. */
  divestImbalanced(
    call: CallContext,
    diff: LazyStorageDiff,
    user: string,
    id: number,
    amounts: ReadonlyMap<number, bigint>,
  ): DexCall {
    const p = this.pool(id);
    const before = p.tokens.map((x) => x.reserves);
    const after = before.map((r, i) => r - (amounts.get(i) ?? 0n));
    const d0 = invariant(normalized(p.tokens), p.ampF);
    const d1 = invariant(normalized(this.withReserves(id, after)), p.ampF);
    const b = balanced(before, d0, after, d1, this.fees(id), false);
    const d2 = invariant(normalized(this.withReserves(id, b.withoutLp)), p.ampF);
    const burn = ((d0 - d2) * p.totalSupply + d0 - 1n) / d0;
    if (burn <= 0n || burn > this.ledger.get(user, id)) this.reject('stable imbalanced divest out of range');
    for (const [i, amount] of [...amounts.entries()].sort((x, y) => y[0] - x[0]))
      if (amount > 0n) this.token(id, i).transfer(call, this.address, this.address, user, amount);
    this.setReserves(id, b.reserves, p.totalSupply - burn);
    this.ledger.add(diff, user, -burn, id);
    this.writePool(diff, id);
    return {
      entrypoint: 'divest_imbalanced',
      value: pair(int(id), natMap(amounts), int(burn), deadline(call), NONE, NONE),
      grown: 0,
    };
  }

  /** FA2 `transfer` of LP shares (token id = pool id). */
  transfer(diff: LazyStorageDiff, from: string, to: string, id: number, shares: bigint): DexCall {
    this.ledger.add(diff, from, -shares, id);
    const grown = this.ledger.add(diff, to, shares, id);
    return { entrypoint: 'transfer', value: [pair(str(from), [pair(str(to), int(id), int(shares))])], grown };
  }

  /** The contract's FAILWITH: the content fails (checked before anything moved). */
  reject(error: string): never {
    throw new ContentFailure(scriptRejected(this.errorPrefix, this.address, str(error)));
  }

  private withReserves(id: number, reserves: readonly bigint[]): MathToken[] {
    return this.pool(id).tokens.map((x, i) => ({ ...x, reserves: reserves[i] }));
  }
}
