import {
  type AccountBook,
  BalanceUpdates,
  bigMapGet,
  type BlockContext,
  CallContext,
  type ContractModel,
  type ContractRegistry,
  entrypoints,
  type Fa12Token,
  type GenesisContext,
  int,
  KNOWN_ADDRESSES,
  type LazyStorageDiff,
  left,
  ManagerGroupBuilder,
  type Micheline,
  pair,
  pairT,
  pickSource,
  prim,
  right,
  script,
  some,
  str,
  t,
  tAddress,
  tBigMap,
  tBytes,
  tNat,
  tString,
  tTimestamp,
  tUnit,
  TEZ,
  unit,
} from '../../../../../framework/sandbox/extension';
import { PendingDiff } from '../../../sim/cpmm/PendingDiff';
import { deferredCall } from '../../../sim/cpmm/traffic';
import type { LedgerCall, PoolCall } from '../../../sim/cpmm/ReservePool';
import { PAIR_T, TOKEN_T, TOKENS_T } from '../types';

export const QUIPUSWAP_V2_LABELS = {
  core: 'quipuswap-v2 DexCore',
  bucket: (pairId: number) => `quipuswap-v2 bucket ${pairId}`,
} as const;
/** Mainnet fees (1e18 precision): interface 0.05%, swap 0.225%, auction 0.075%. */
export const QUIPUSWAP_V2_FEES = {
  interface: 5n * 10n ** 14n,
  swap: 225n * 10n ** 13n,
  auction: 75n * 10n ** 13n,
} as const;
const P = 10n ** 18n;

interface PairModel {
  a: string;
  /** Token B's FA1.2 address; undefined for tez (held by the bucket). */
  b?: string;
  aPool: bigint;
  bPool: bigint;
  supply: bigint;
  bucket?: string;
  launched: boolean;
}

interface CoreState {
  /**
   * token_metadata, ledger, accounts, tokens, token_to_id, pairs, permits, interface_fee, interface_tez_fee,
   * auction_fee, auction_tez_fee
   */
  maps: number[];
  lambdas: number;
  metadata: number;
  pairs: PairModel[];
}

const comb = (...f: Micheline[]) => pairT(...f);
const TOKEN_ID = tNat();
const SWAP_SLICE = comb(t('or', '%direction', tUnit('%a_to_b'), tUnit('%b_to_a')), tNat('%pair_id'));
const TRANSFER = t(
  'list',
  undefined,
  comb(tAddress('%from_'), t('list', '%txs', comb(tAddress('%to_'), tNat('%token_id'), tNat('%amount')))),
);
/** DexCore's DEX and FA2 entrypoints with the mainnet argument types (LIGO comb records). */
const PARAMETER = entrypoints(
  [
    'launch_exchange',
    comb(
      t('pair', '%pair', TOKEN_T('%token_a'), TOKEN_T('%token_b')),
      tNat('%token_a_in'),
      tNat('%token_b_in'),
      tAddress('%shares_receiver'),
      t('key_hash', '%candidate'),
      tTimestamp('%deadline'),
      t('option', '%referral_code', tNat()),
    ),
  ],
  [
    'invest_liquidity',
    comb(
      tNat('%pair_id'),
      tNat('%token_a_in'),
      tNat('%token_b_in'),
      tNat('%shares'),
      tAddress('%shares_receiver'),
      t('key_hash', '%candidate'),
      tTimestamp('%deadline'),
      t('option', '%referral_code', tNat()),
    ),
  ],
  [
    'divest_liquidity',
    comb(
      tNat('%pair_id'),
      tNat('%min_token_a_out'),
      tNat('%min_token_b_out'),
      tNat('%shares'),
      tAddress('%liquidity_receiver'),
      t('key_hash', '%candidate'),
      tTimestamp('%deadline'),
      t('option', '%referral_code', tNat()),
    ),
  ],
  [
    'swap',
    comb(
      t('option', '%lambda', t('lambda', undefined, tUnit(), t('list', undefined, t('operation')))),
      t('list', '%swaps', SWAP_SLICE),
      tTimestamp('%deadline'),
      tAddress('%receiver'),
      tAddress('%referrer'),
      tNat('%amount_in'),
      tNat('%min_amount_out'),
      t('option', '%referral_code', tNat()),
    ),
  ],
  [
    'withdraw_profit',
    comb(t('contract', '%receiver', tUnit()), tNat('%pair_id'), t('option', '%referral_code', tNat())),
  ],
  [
    'launch_callback',
    comb(
      t(
        'pair',
        '%vote_params',
        tAddress('%voter'),
        t('key_hash', '%candidate'),
        t('bool', '%execute_voting'),
        tNat('%votes'),
      ),
      tAddress('%bucket'),
    ),
  ],
  ['close', tUnit()],
  ['transfer', TRANSFER],
);
const TOKEN_INFO = comb(tNat('%token_id'), t('map', '%token_info', tString(), tBytes()));
const ADDR_ID = comb(tAddress(), TOKEN_ID);
/** The inner storage's 11 big maps, in storage order: their keys', values' types and annotations. */
const BIG_MAPS: Array<[key: Micheline, value: Micheline, annot: string]> = [
  [TOKEN_ID, TOKEN_INFO, '%token_metadata'],
  [ADDR_ID, tNat(), '%ledger'],
  [ADDR_ID, t('set', '%allowances', tAddress()), '%accounts'],
  [TOKEN_ID, TOKENS_T, '%tokens'],
  [tBytes(), TOKEN_ID, '%token_to_id'],
  [TOKEN_ID, PAIR_T, '%pairs'],
  [
    tAddress(),
    comb(
      t('map', '%permits', tBytes(), comb(t('timestamp', '%created_at'), t('option', '%expiry', tNat()))),
      t('option', '%expiry', tNat()),
    ),
    '%permits',
  ],
  [comb(TOKEN_T(), tAddress()), tNat(), '%interface_fee'],
  [comb(TOKEN_ID, tAddress()), tNat(), '%interface_tez_fee'],
  [TOKEN_T(), tNat(), '%auction_fee'],
  [TOKEN_ID, tNat(), '%auction_tez_fee'],
];
/** The mainnet storage: `{storage (24 fields), dex_core_lambdas, metadata}`. */
const STORAGE = comb(
  t(
    'pair',
    '%storage',
    ...BIG_MAPS.map(([key, value, annot]) => tBigMap(key, value, annot)),
    t('set', '%managers', tAddress()),
    t(
      'pair',
      '%fees',
      tNat('%interface_fee'),
      t('pair', undefined, tNat('%swap_fee'), t('pair', undefined, tNat('%auction_fee'), tNat('%withdraw_fee_reward'))),
    ),
    tAddress('%admin'),
    t('option', '%pending_admin', tAddress()),
    tAddress('%baker_registry'),
    tAddress('%flash_swaps_proxy'),
    tAddress('%auction'),
    tNat('%permits_counter'),
    tNat('%default_expiry'),
    t('bool', '%entered'),
    tNat('%tokens_count'),
    tNat('%collecting_period'),
    tNat('%baker_rate_f'),
  ),
  tBigMap(tNat(), tBytes(), '%dex_core_lambdas'),
  tBigMap(tString(), tBytes(), '%metadata'),
);
const BUCKET_PARAMETER = entrypoints(
  ['fill', tUnit()],
  ['pour_out', comb(t('contract', '%receiver', tUnit()), tNat('%amt'))],
  ['pour_over', comb(tAddress('%bucket'), tNat('%amt'))],
);

/** A tez pair's bucket: holds the pair's tez (`fill` in, `pour_out` to a receiver, `pour_over` to another bucket). */
class Bucket implements ContractModel {
  readonly role = 'quipuswap_v2_bucket';
  readonly code = script(BUCKET_PARAMETER, tNat('%pair_id'));
  constructor(
    readonly address: string,
    readonly pairId: number,
  ) {}
  storage(): Micheline {
    return int(this.pairId);
  }
}

const tokenValue = (fa12: string | undefined): Micheline => (fa12 ? left(left(str(fa12))) : right(unit));
const deadline = (ts: string) => int(Math.floor(Date.parse(ts) / 1000) + 1200);

/**
 * QuipuSwap v2 DexCore with the mainnet parameter and storage types: pairs 0 (kUSD/tez), 1 (tzBTC/tez)
 * and 2 (kUSD/tzBTC) listed empty at genesis (the tez pairs' buckets too) and launched by the traffic.
 * Reserves move by the contract's swap formula and fee split; interface and auction fee counters
 * are not kept (the indexer does not read them).
 */
export class DexCore implements ContractModel {
  readonly role = 'quipuswap_v2';
  readonly service = 'dex';
  readonly code = script(PARAMETER, STORAGE);

  constructor(
    private readonly book: AccountBook,
    readonly address: string,
    readonly buckets: readonly Bucket[],
  ) {}

  get state(): CoreState {
    return this.book.state<CoreState>(this.address);
  }

  storage(): Micheline {
    const s = this.state;
    const f = QUIPUSWAP_V2_FEES;
    const kt = str(this.address);
    return pair(
      pair(
        ...s.maps.map((id) => int(id)),
        [],
        pair(int(f.interface), int(f.swap), int(f.auction), int(0)),
        kt,
        prim('None'),
        kt,
        kt,
        kt,
        int(0),
        int(31_536_000),
        prim('False'),
        int(s.pairs.filter((p) => p.launched).length),
        int(60_480),
        int(5n * 10n ** 17n),
      ),
      int(s.lambdas),
      int(s.metadata),
    );
  }

  sharesOf(owner: string, pairId: number): bigint {
    const v = bigMapGet(this.book, this.state.maps[1], pair(str(owner), int(pairId)));
    return v && 'int' in v ? BigInt(v.int) : 0n;
  }

  /** Diff of the core's own big maps (pairs, ledger) within the current call. */
  readonly pending = new PendingDiff();

  /** Genesis: allocates the big maps; the pairs wait for their `launch_exchange`. */
  init(diff: LazyStorageDiff, pairs: PairModel[]): void {
    const maps = BIG_MAPS.map(([key, value]) => diff.alloc(key, value));
    this.book.setState<CoreState>(this.address, {
      maps,
      lambdas: diff.alloc(tNat(), tBytes()),
      metadata: diff.alloc(tString(), tBytes()),
      pairs,
    });
  }

  private writePair(diff: LazyStorageDiff, id: number): void {
    const p = this.state.pairs[id];
    const maps = this.state.maps;
    diff.update(maps[3], int(id), pair(tokenValue(p.a), tokenValue(p.b)));
    // Cumulative prices and their timestamp are not simulated (zeros).
    diff.update(
      maps[5],
      int(id),
      pair(
        int(p.aPool),
        int(p.bPool),
        int(0),
        int(0),
        int(p.supply),
        int(0),
        p.bucket ? some(str(p.bucket)) : prim('None'),
      ),
    );
  }

  private setPair(call: CallContext, id: number, next: Partial<PairModel>): void {
    const pairs = this.state.pairs.map((p, i) => (i === id ? { ...p, ...next } : p));
    this.book.setState<CoreState>(this.address, { ...this.state, pairs });
    this.writePair(this.pending.of(call), id);
  }

  private credit(call: CallContext, owner: string, id: number, delta: bigint): number {
    const before = this.sharesOf(owner, id);
    const after = before + delta;
    if (after < 0n) throw new Error('quipuswap-v2: not enough shares');
    this.pending.of(call).update(this.state.maps[1], pair(str(owner), int(id)), after === 0n ? undefined : int(after));
    return before === 0n && after > 0n ? 1 : 0;
  }

  token(address: string): Fa12Token {
    const token = this.tokens.get(address);
    if (!token) throw new Error(`quipuswap-v2: no token ${address}`);
    return token;
  }

  tokens = new Map<string, Fa12Token>();

  /** Tez into a pair's bucket (`fill`), from the core. */
  private fill(call: CallContext, bucket: Bucket, from: string, amount: bigint): void {
    const moves = new BalanceUpdates(this.book).transfer(
      (b, c) => b.contract(from, c),
      (b, c) => b.contract(bucket.address, c),
      amount,
    );
    call.pushCall(from, bucket, amount, 'fill', unit, call.contractResult(bucket, call.newDiff(), 2000, 0, moves));
  }

  private pourOut(call: CallContext, bucket: Bucket, to: string, amount: bigint): void {
    call.pushCall(
      this.address,
      bucket,
      0n,
      'pour_out',
      pair(str(to), int(amount)),
      call.contractResult(bucket, call.newDiff(), 2000, 0),
    );
    call.pushTezTransfer(bucket.address, to, amount);
  }

  private close(call: CallContext): void {
    call.pushCall(this.address, this, 0n, 'close', unit, { storage: this.storage(), consumed_milligas: '1000000' });
  }

  /** The bucket of tez pair `id`. */
  bucketOf(id: number): Bucket {
    const bucket = this.buckets.find((b) => b.pairId === id);
    if (!bucket) throw new Error(`quipuswap-v2: pair ${id} has no bucket`);
    return bucket;
  }

  /** `swap` along `route` (pair id, a→b?) from `user`, paying `amountIn` of the first hop's input. */
  swap(
    call: CallContext,
    user: string,
    route: Array<[number, boolean]>,
    amountIn: bigint,
    transfer: BalanceUpdates,
  ): PoolCall {
    const f = QUIPUSWAP_V2_FEES;
    const fee = f.interface + f.swap + f.auction;
    let amount = amountIn;
    let fromBucket: Bucket | undefined;
    const forwards: Array<[Bucket, Bucket, bigint]> = [];
    route.forEach(([id, aToB]) => {
      const p = this.state.pairs[id];
      const [fromPool, toPool] = aToB ? [p.aPool, p.bPool] : [p.bPool, p.aPool];
      const inTez = !aToB && !p.b;
      if (inTez && fromBucket) forwards.push([fromBucket, this.bucketOf(id), amount]);
      const withFee = amount * (P - fee);
      const out = (withFee * toPool) / (fromPool * P + withFee);
      const kept = (withFee + amount * f.swap) / P;
      this.setPair(
        call,
        id,
        aToB ? { aPool: p.aPool + kept, bPool: p.bPool - out } : { bPool: p.bPool + kept, aPool: p.aPool - out },
      );
      fromBucket = aToB && !p.b ? this.bucketOf(id) : undefined;
      amount = out;
    });
    const [firstId, firstAToB] = route[0];
    const first = this.state.pairs[firstId];
    // Token B undefined: tez, through the pair's bucket.
    const tokenIn = firstAToB ? first.a : first.b;
    const [lastId, lastAToB] = route[route.length - 1];
    const last = this.state.pairs[lastId];
    const tokenOut = lastAToB ? last.b : last.a;
    for (const [from, to, amt] of forwards) {
      call.pushCall(
        this.address,
        from,
        0n,
        'pour_over',
        pair(str(to.address), int(amt)),
        call.contractResult(from, call.newDiff(), 2000, 0),
      );
      this.fill(call, to, from.address, amt);
    }
    if (tokenOut === undefined) this.pourOut(call, this.bucketOf(lastId), user, amount);
    else this.token(tokenOut).transfer(call, this.address, this.address, user, amount);
    if (tokenIn === undefined) {
      transfer.transfer(
        (b, c) => b.contract(user, c),
        (b, c) => b.contract(this.address, c),
        amountIn,
      );
      this.fill(call, this.bucketOf(firstId), this.address, amountIn);
    } else this.token(tokenIn).transfer(call, this.address, user, this.address, amountIn);
    this.close(call);
    const swaps = route.map(([id, aToB]) => pair(aToB ? left(unit) : right(unit), int(id)));
    return {
      entrypoint: 'swap',
      amount: tokenIn === undefined ? amountIn : 0n,
      value: pair(
        prim('None'),
        swaps,
        deadline(call.ctx.timestamp),
        str(user),
        str(user),
        int(amountIn),
        int(1),
        prim('None'),
      ),
    };
  }

  /** `invest_liquidity`: mints `shares` to `user` for the tokens they require (rounded up). */
  invest(call: CallContext, user: string, id: number, shares: bigint, transfer: BalanceUpdates): LedgerCall {
    const p = this.state.pairs[id];
    const ceil = (x: bigint) => (x * shares + p.supply - 1n) / p.supply;
    const [a, b] = [ceil(p.aPool), ceil(p.bPool)];
    const grown = this.credit(call, user, id, shares);
    this.setPair(call, id, { aPool: p.aPool + a, bPool: p.bPool + b, supply: p.supply + shares });
    this.token(p.a).transfer(call, this.address, user, this.address, a);
    if (p.b) this.token(p.b).transfer(call, this.address, user, this.address, b);
    else {
      transfer.transfer(
        (x, c) => x.contract(user, c),
        (x, c) => x.contract(this.address, c),
        b,
      );
      this.fill(call, this.bucketOf(id), this.address, b);
    }
    this.close(call);
    const value = pair(
      int(id),
      int(a),
      int(b),
      int(shares),
      str(user),
      str(BAKER),
      deadline(call.ctx.timestamp),
      prim('None'),
    );
    return { grown, entrypoint: 'invest_liquidity', amount: p.b ? 0n : b, value };
  }

  /** `divest_liquidity`: burns `shares` of `user` for the pro-rata reserves. */
  divest(call: CallContext, user: string, id: number, shares: bigint): LedgerCall {
    const p = this.state.pairs[id];
    const [a, b] = [(shares * p.aPool) / p.supply, (shares * p.bPool) / p.supply];
    this.credit(call, user, id, -shares);
    this.setPair(call, id, { aPool: p.aPool - a, bPool: p.bPool - b, supply: p.supply - shares });
    this.token(p.a).transfer(call, this.address, this.address, user, a);
    if (p.b) this.token(p.b).transfer(call, this.address, this.address, user, b);
    else this.pourOut(call, this.bucketOf(id), user, b);
    this.close(call);
    const value = pair(
      int(id),
      int(1),
      int(1),
      int(shares),
      str(user),
      str(BAKER),
      deadline(call.ctx.timestamp),
      prim('None'),
    );
    return { grown: 0, entrypoint: 'divest_liquidity', amount: 0n, value };
  }

  /**
   * `launch_exchange` of a pair not listed yet: min(a, b) shares to `user`. A tez pair's tez (b) comes
   * with the call and goes on to its bucket (`fill`; mainnet originates the bucket in the launch, the
   * sandbox's buckets are there from genesis).
   */
  launch(call: CallContext, user: string, id: number, a: bigint, b: bigint, transfer: BalanceUpdates): LedgerCall {
    const p = this.state.pairs[id];
    const shares = a < b ? a : b;
    this.setPair(call, id, { aPool: a, bPool: b, supply: shares, launched: true });
    const grown = this.credit(call, user, id, shares);
    this.token(p.a).transfer(call, this.address, user, this.address, a);
    if (p.b) this.token(p.b).transfer(call, this.address, user, this.address, b);
    else {
      transfer.transfer(
        (x, c) => x.contract(user, c),
        (x, c) => x.contract(this.address, c),
        b,
      );
      this.fill(call, this.bucketOf(id), this.address, b);
    }
    this.close(call);
    const value = pair(
      pair(tokenValue(p.a), tokenValue(p.b)),
      int(a),
      int(b),
      str(user),
      str(BAKER),
      deadline(call.ctx.timestamp),
      prim('None'),
    );
    return { grown: grown + 2, entrypoint: 'launch_exchange', amount: p.b ? 0n : b, value };
  }

  /** An FA2 `transfer` of LP shares (token id = pair id) from `user` to `to`. */
  transferShares(call: CallContext, user: string, to: string, id: number, shares: bigint): LedgerCall {
    this.credit(call, user, id, -shares);
    const grown = this.credit(call, to, id, shares);
    return {
      grown,
      entrypoint: 'transfer',
      amount: 0n,
      value: [pair(str(user), [pair(str(to), int(id), int(shares))])],
    };
  }
}

const BAKER = 'tz1KqTpEZ7Yob7QbPE4Hy4Wo8fHG8LhKxZSx';

export function registerQuipuswapV2(contracts: ContractRegistry, book: AccountBook): void {
  const buckets = [0, 1].map((id) =>
    contracts.add(
      new Bucket(contracts.derivedAddress(QUIPUSWAP_V2_LABELS.bucket(id)), id),
      `QuipuSwap v2 bucket ${id}`,
    ),
  );
  const core = contracts.add(
    new DexCore(book, contracts.derivedAddress(QUIPUSWAP_V2_LABELS.core), buckets),
    'QuipuSwap v2 DexCore',
  );
  for (const a of [KNOWN_ADDRESSES.kUSD, KNOWN_ADDRESSES.tzBTC]) core.tokens.set(a, contracts.require(a));
}

export const quipuswapV2 = (contracts: ContractRegistry): DexCore =>
  contracts.require(contracts.derivedAddress(QUIPUSWAP_V2_LABELS.core));

export function seedQuipuswapV2(g: GenesisContext): void {
  const core = quipuswapV2(g.contracts);
  core.buckets.forEach((b) => g.originate(b, 0n, () => undefined));
  const pairs: PairModel[] = [
    { a: KNOWN_ADDRESSES.kUSD, aPool: 0n, bPool: 0n, supply: 0n, bucket: core.buckets[0].address, launched: false },
    { a: KNOWN_ADDRESSES.tzBTC, aPool: 0n, bPool: 0n, supply: 0n, bucket: core.buckets[1].address, launched: false },
    { a: KNOWN_ADDRESSES.kUSD, b: KNOWN_ADDRESSES.tzBTC, aPool: 0n, bPool: 0n, supply: 0n, launched: false },
  ];
  g.originate(core, 0n, (diff) => core.init(diff, pairs));
}

/** One DexCore call: the pairs' launches first, then swaps (one or two hops), deposits, withdrawals, LP transfers. */
export function quipuswapV2Call(ctx: BlockContext, core: DexCore): Record<string, unknown> | undefined {
  const { prng } = ctx;
  const pairs = core.state.pairs;
  const held = (token: string | undefined, a: { address: string; balance: bigint }) =>
    token ? core.token(token).balanceOf(a.address) : a.balance / 4n;
  const call = (user: string, run: (c: CallContext, tr: BalanceUpdates) => PoolCall & { grown?: number }) =>
    new ManagerGroupBuilder(ctx).build(user, [deferredCall(ctx, user, core, run, 12000, core.pending)]);
  const waiting = pairs.findIndex((p) => !p.launched);
  if (waiting >= 0) {
    // A launch waits for a user holding both sides; until then the launched pairs trade.
    const w = pairs[waiting];
    const both = (a: { address: string; balance: bigint }) => held(w.a, a) > 10_000n && held(w.b, a) > 10_000n;
    const src = pickSource(ctx, (a) => a.balance > 50n * TEZ && both(a), false);
    if (src) {
      const [a, b] = [held(w.a, src) / 4n, held(w.b, src) / 4n];
      return call(src.address, (c, tr) => core.launch(c, src.address, waiting, a, b, tr));
    }
  }
  const live = pairs.flatMap((p, i) => (p.launched ? [i] : []));
  if (live.length === 0) return undefined;
  const action = prng.float();
  const id = live[prng.int(live.length)];
  const p = pairs[id];
  if (action < 0.45) {
    // A hop, or two through tez: tzBTC → tez → kUSD or back.
    const twoHops = action < 0.15 && pairs[0].launched && pairs[1].launched;
    const route: Array<[number, boolean]> = twoHops
      ? prng.float() < 0.5
        ? [
            [1, true],
            [0, false],
          ]
        : [
            [0, true],
            [1, false],
          ]
      : [[id, prng.float() < 0.5]];
    const [fid, aToB] = route[0];
    const tokenIn = aToB ? pairs[fid].a : pairs[fid].b;
    const src = pickSource(ctx, (a) => a.balance > 20n * TEZ && held(tokenIn, a) > 0n, false);
    if (!src) return undefined;
    const pool = aToB ? pairs[fid].aPool : pairs[fid].bPool;
    const cap = held(tokenIn, src) / 3n < pool / 500n ? held(tokenIn, src) / 3n : pool / 500n;
    if (cap < 2n) return undefined;
    const amount = 1n + prng.bigRange(0n, cap);
    return call(src.address, (c, tr) => core.swap(c, src.address, route, amount, tr));
  }
  if (action < 0.7) {
    const src = pickSource(ctx, (a) => a.balance > 50n * TEZ && held(p.a, a) > 0n && held(p.b, a) > 0n, false);
    if (!src) return undefined;
    const byA = (held(p.a, src) * p.supply) / p.aPool;
    const byB = (held(p.b, src) * p.supply) / p.bPool;
    const most = (byA < byB ? byA : byB) / 3n;
    if (most < 2n) return undefined;
    const shares = 1n + prng.bigRange(0n, most);
    return call(src.address, (c, tr) => core.invest(c, src.address, id, shares, tr));
  }
  const src = pickSource(ctx, (a) => a.balance > TEZ && core.sharesOf(a.address, id) > 0n, false);
  if (!src) return undefined;
  const shares = 1n + prng.bigRange(0n, core.sharesOf(src.address, id) / 3n);
  if (action < 0.85) return call(src.address, (c) => core.divest(c, src.address, id, shares));
  const to = pickSource(ctx, (a) => a.address !== src.address && a.address.startsWith('tz'), false);
  return to ? call(src.address, (c) => core.transferShares(c, src.address, to.address, id, shares)) : undefined;
}
