import {
  type AccountBook,
  asMicheline,
  type BigMapValue,
  type CallContext,
  ContentFailure,
  type ContractModel,
  type Fa12Token,
  type LazyStorageDiff,
  type Micheline,
  NULL_ADDRESS,
  PositionBook,
  scriptRejected,
  shippedScript,
  str,
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
import { quipuStableDex4factoryCode, type QuipuStableDex4factoryStorage } from '../types.gen';

/** The factory's dev fee (its `dev_fee` view), as the mainnet factory's storage holds it. */
const DEV_FEE_F = 4_500_000n;

interface StablePoolState {
  ampF: bigint;
  tokens: MathToken[];
  fee: { lp: bigint; stakers: bigint; ref: bigint };
  totalSupply: bigint;
}

interface DexState {
  maps: Record<MapName, number>;
  pools: StablePoolState[];
}

export interface PoolSpec {
  tokens: Array<{ token: Fa12Token; rate: bigint; precision: bigint }>;
  ampF: bigint;
  fee: { lp: bigint; stakers: bigint; ref: bigint };
}

/*
 * The dex's real types (`../types.ts`, dex4factory): the origination's script, its big maps' types, the storage
 * and every call are written from typed values through them, as the adapter reads them back.
 */
const CODE = quipuStableDex4factoryCode;
type Inner = QuipuStableDex4factoryStorage['storage'];
type PoolValue = BigMapValue<Inner['pools']>;
const INNER_T = CODE.storageValue.field('storage');
const POOL_T = INNER_T.field('pools').entries();
const TOKENS_T = INNER_T.field('tokens').entries();
/** The big maps of the storage, in order (inner record, then the outer metadata and lambdas). */
const INNER_MAPS = [
  'tokens',
  'pool_to_id',
  'pools',
  'ledger',
  'allowances',
  'token_metadata',
  'dev_rewards',
  'referral_rewards',
  'stakers_balance',
] as const;
const OUTER_MAPS = ['metadata', 'admin_lambdas', 'dex_lambdas', 'token_lambdas'] as const;
type MapName = (typeof INNER_MAPS)[number] | (typeof OUTER_MAPS)[number];

const isInner = (n: MapName): n is (typeof INNER_MAPS)[number] => (INNER_MAPS as readonly string[]).includes(n);

/** A big map's key and value types, as the shipped storage type declares them. */
function bigMapTypes(name: MapName): [Micheline, Micheline] {
  const type = asMicheline((isInner(name) ? INNER_T.field(name) : CODE.storageValue.field(name)).type);
  if (Array.isArray(type) || !('prim' in type) || type.prim !== 'big_map' || type.args?.length !== 2)
    throw new Error(`quipuswap-stable: ${name} is not a big map in the shipped storage`);
  return [type.args[0], type.args[1]];
}

const deadline = (call: CallContext) => new Date(Date.parse(call.ctx.timestamp) + 20 * 60_000);
const natMap = (m: ReadonlyMap<number, bigint>) => new Map([...m].map(([k, v]) => [BigInt(k), v]));

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
  readonly code = shippedScript(CODE.types);
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
    const maps = Object.fromEntries(
      [...INNER_MAPS, ...OUTER_MAPS].map((k) => [k, diff.alloc(...bigMapTypes(k))]),
    ) as DexState['maps'];
    const pools = this.specs.map((s) => ({
      ampF: s.ampF,
      fee: s.fee,
      totalSupply: 0n,
      tokens: s.tokens.map((x) => ({ rate: x.rate, precision: x.precision, reserves: 0n })),
    }));
    this.book.setState<DexState>(this.address, { maps, pools });
    this.specs.forEach((s, id) => {
      const tokens = new Map(s.tokens.map((x, i) => [BigInt(i), { fa12: x.token.address }]));
      diff.update(maps.tokens, TOKENS_T.key.encode(BigInt(id)), TOKENS_T.value.encode(tokens, 'optimized'));
      this.writePool(diff, id);
    });
  }

  storage(): Micheline {
    const m = this.state.maps;
    const inner: Inner = {
      admin: NULL_ADDRESS,
      default_referral: NULL_ADDRESS,
      managers: [],
      pools_count: BigInt(this.specs.length),
      tokens: m.tokens,
      pool_to_id: m.pool_to_id,
      pools: m.pools,
      ledger: m.ledger,
      allowances: m.allowances,
      token_metadata: m.token_metadata,
      dev_rewards: m.dev_rewards,
      referral_rewards: m.referral_rewards,
      stakers_balance: m.stakers_balance,
      quipu_token: { token_address: NULL_ADDRESS, token_id: 0n },
      factory_address: NULL_ADDRESS,
      started: true,
    };
    return CODE.storageValue.encode(
      {
        storage: inner,
        metadata: m.metadata,
        admin_lambdas: m.admin_lambdas,
        dex_lambdas: m.dex_lambdas,
        token_lambdas: m.token_lambdas,
      },
      'optimized',
    );
  }

  private fees(id: number): MathFees {
    return { ...this.pool(id).fee, dev: DEV_FEE_F };
  }

  private writePool(diff: LazyStorageDiff, id: number): void {
    const p = this.pool(id);
    const value: PoolValue = {
      initial_A_f: p.ampF,
      initial_A_time: new Date(0),
      future_A_f: p.ampF,
      future_A_time: new Date(0),
      tokens_info: new Map(
        p.tokens.map((x, i) => [
          BigInt(i),
          { rate_f: x.rate, precision_multiplier_f: x.precision, reserves: x.reserves },
        ]),
      ),
      fee: { lp_f: p.fee.lp, stakers_f: p.fee.stakers, ref_f: p.fee.ref },
      staker_accumulator: { accumulator_f: new Map(), total_fees: new Map(), total_staked: 0n },
      total_supply: p.totalSupply,
    };
    diff.update(this.state.maps.pools, POOL_T.key.encode(BigInt(id)), POOL_T.value.encode(value, 'optimized'));
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
      value: CODE.encodeCall('swap', {
        pool_id: BigInt(id),
        idx_from: BigInt(i),
        idx_to: BigInt(j),
        amount: dx,
        min_amount_out: f.out,
        deadline: deadline(call),
        receiver: null,
        referral: null,
      }),
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
      value: CODE.encodeCall('invest', {
        pool_id: BigInt(id),
        shares: minted,
        in_amounts: natMap(inputs),
        deadline: deadline(call),
        receiver: null,
        referral: null,
      }),
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
      value: CODE.encodeCall('divest', {
        pool_id: BigInt(id),
        min_amounts_out: natMap(new Map(out.map((v, i) => [i, v]))),
        shares,
        deadline: deadline(call),
        receiver: null,
      }),
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
      value: CODE.encodeCall('divest_one_coin', {
        pool_id: BigInt(id),
        shares,
        token_index: BigInt(i),
        min_amount_out: dy,
        deadline: deadline(call),
        receiver: null,
        referral: null,
      }),
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
      value: CODE.encodeCall('divest_imbalanced', {
        pool_id: BigInt(id),
        amounts_out: natMap(amounts),
        max_shares: burn,
        deadline: deadline(call),
        receiver: null,
        referral: null,
      }),
      grown: 0,
    };
  }

  /** FA2 `transfer` of LP shares (token id = pool id). */
  transfer(diff: LazyStorageDiff, from: string, to: string, id: number, shares: bigint): DexCall {
    this.ledger.add(diff, from, -shares, id);
    const grown = this.ledger.add(diff, to, shares, id);
    const value = CODE.encodeCall('transfer', [
      { from_: from, txs: [{ to_: to, token_id: BigInt(id), amount: shares }] },
    ]);
    return { entrypoint: 'transfer', value, grown };
  }

  /** The contract's FAILWITH: the content fails (checked before anything moved). */
  reject(error: string): never {
    throw new ContentFailure(scriptRejected(this.errorPrefix, this.address, str(error)));
  }

  private withReserves(id: number, reserves: readonly bigint[]): MathToken[] {
    return this.pool(id).tokens.map((x, i) => ({ ...x, reserves: reserves[i] }));
  }
}
