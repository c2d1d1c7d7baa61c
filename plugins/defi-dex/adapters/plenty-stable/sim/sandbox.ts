import {
  type Account,
  type AccountBook,
  type BalanceUpdates,
  type BlockContext,
  type CallContext,
  type ContractModel,
  type ContractRegistry,
  entrypoints,
  Fa12Token,
  type GenesisContext,
  int,
  KNOWN_ADDRESSES,
  ManagerGroupBuilder,
  type Micheline,
  pair,
  pickSource,
  prim,
  str,
  script,
  TEZ,
} from '../../../../../framework/sandbox/extension';
import { type AppliedCall, contractCall } from '../../../sim/cpmm/traffic';
import { flatCurveOutput } from '../../../sim/cpmm/flatCurve';

/**
 * Seed labels of the sandbox's Plenty stable pools (tzBTC/kUSD, ctez/tez), their LP tokens and ctez's main contract.
 */
export const PLENTY_STABLE_LABELS = {
  tokenPool: 'plenty-stable-tzbtc-kusd',
  tokenLp: 'plenty-stable-tzbtc-kusd-lp',
  ctezPool: 'plenty-stable-ctez-tez',
  ctezLp: 'plenty-stable-ctez-tez-lp',
  ctezMain: 'ctez-main',
} as const;
/** The fee divisor of both pools: ⌊W/1000⌋ of the curve's output W (0.1%). */
const LP_FEE = 1000n;
/** ctez's target price in tez, Q48 (1.05), as ctez's main contract answers `get_target`. */
const TARGET = (105n << 48n) / 100n;

const t = (prim_: string, annot?: string, ...args: Micheline[]): Micheline =>
  prim(prim_, args.length ? args : undefined, annot ? [annot] : undefined);
/** A plain binary `pair` type (the pools' storages are balanced trees, not right combs). */
const P = (a: Micheline, b: Micheline): Micheline => prim('pair', [a, b]);
const bool = (b: boolean): Micheline => prim(b ? 'True' : 'False');
const none = prim('None');

interface Reserves {
  a: bigint;
  b: bigint;
  lqtTotal: bigint;
  /** The opening price A : B, which the first deposit into the empty pool follows. */
  opening: [bigint, bigint];
}

/** Shared by both pools: reserves (A, B), the LP token and its total, kept in the account book. */
abstract class StablePool implements ContractModel {
  readonly service = 'dex';
  abstract readonly code: Micheline;
  abstract storage(): Micheline;

  constructor(
    protected readonly book: AccountBook,
    readonly address: string,
    readonly role: string,
    readonly lqt: Fa12Token,
  ) {}

  get state(): Reserves {
    return this.book.state<Reserves>(this.address);
  }

  protected set(s: Partial<Reserves>): void {
    this.book.setState<Reserves>(this.address, { ...this.state, ...s });
  }

  /** The price deposits follow, A : B: the reserves, or the opening price while the pool is empty. */
  price(): [bigint, bigint] {
    const s = this.state;
    return s.lqtTotal === 0n ? s.opening : [s.a, s.b];
  }

  /**
   * Deposit of `a` and the matching B for `owner` (shares pro rata, B rounded up); mints the shares.
   * The first deposit brings B at the opening price and mints `a` shares (the sandbox's rule: the real
   * pools mint 2·√(a·b) and lock 1000 of them, not simulated).
   */
  protected deposit(call: CallContext, owner: string, a: bigint): { b: bigint; shares: bigint } {
    const s = this.state;
    const first = s.lqtTotal === 0n;
    const shares = first ? a : (a * s.lqtTotal) / s.a;
    const b = first ? (a * s.opening[1]) / s.opening[0] : (shares * s.b + s.lqtTotal - 1n) / s.lqtTotal;
    this.lqt.mintOrBurn(call, this.address, owner, shares);
    this.set({ a: s.a + a, b: s.b + b, lqtTotal: s.lqtTotal + shares });
    return { b, shares };
  }

  /** Burns `shares` of `owner` for their pro-rata part of each reserve. */
  protected withdraw(call: CallContext, owner: string, shares: bigint): { a: bigint; b: bigint } {
    const s = this.state;
    const out = { a: (shares * s.a) / s.lqtTotal, b: (shares * s.b) / s.lqtTotal };
    this.lqt.mintOrBurn(call, this.address, owner, -shares);
    this.set({ a: s.a - out.a, b: s.b - out.b, lqtTotal: s.lqtTotal - shares });
    return out;
  }
}

/**
 * A token/token stable pool (tokens FA1.2, precision 1): `Swap` names the token wanted, the fee comes off the output.
 */
export class TokenStablePool extends StablePool {
  readonly code = script(
    entrypoints(
      [
        'Swap',
        P(
          P(t('nat', '%MinimumTokenOut'), t('address', '%recipient')),
          P(t('address', '%requiredTokenAddress'), P(t('nat', '%requiredTokenId'), t('nat', '%tokenAmountIn'))),
        ),
      ],
      ['add_liquidity', P(t('address', '%recipient'), P(t('nat', '%token1_max'), t('nat', '%token2_max')))],
      [
        'remove_liquidity',
        P(P(t('nat', '%lpAmount'), t('address', '%recipient')), P(t('nat', '%token1_min'), t('nat', '%token2_min'))),
      ],
    ),
    P(
      P(
        P(P(t('address', '%admin'), t('nat', '%lpFee')), P(t('address', '%lqtAddress'), t('nat', '%lqtTotal'))),
        P(
          P(t('bool', '%paused'), t('bool', '%state')),
          P(t('address', '%token1Address'), P(t('bool', '%token1Check'), t('nat', '%token1Fee'))),
        ),
      ),
      P(
        P(
          P(t('nat', '%token1Id'), t('nat', '%token1Pool')),
          P(t('nat', '%token1Precision'), P(t('address', '%token2Address'), t('bool', '%token2Check'))),
        ),
        P(
          P(t('nat', '%token2Fee'), t('nat', '%token2Id')),
          P(t('nat', '%token2Pool'), P(t('nat', '%token2Precision'), t('option', '%voterContract', t('address')))),
        ),
      ),
    ),
  );

  constructor(
    book: AccountBook,
    address: string,
    lqt: Fa12Token,
    readonly tokens: readonly [Fa12Token, Fa12Token],
    private readonly admin: string,
  ) {
    super(book, address, 'plenty_stable_token', lqt);
  }

  storage(): Micheline {
    const s = this.state;
    const [a, b] = this.tokens;
    return pair(
      pair(
        pair(pair(str(this.admin), int(LP_FEE)), pair(str(this.lqt.address), int(s.lqtTotal))),
        pair(pair(bool(false), bool(false)), pair(str(a.address), pair(bool(false), int(0)))),
      ),
      pair(
        pair(pair(int(0), int(s.a)), pair(int(1), pair(str(b.address), bool(false)))),
        pair(pair(int(0), int(0)), pair(int(s.b), pair(int(1), none))),
      ),
    );
  }

  swap(call: CallContext, user: string, sellA: boolean, amountIn: bigint): { entrypoint: string; value: Micheline } {
    const s = this.state;
    const [tin, tout] = sellA ? this.tokens : [this.tokens[1], this.tokens[0]];
    const w = sellA ? flatCurveOutput(s.a, s.b, amountIn) : flatCurveOutput(s.b, s.a, amountIn);
    const out = w - w / LP_FEE;
    tin.transfer(call, this.address, user, this.address, amountIn);
    tout.transfer(call, this.address, this.address, user, out);
    this.set(sellA ? { a: s.a + amountIn, b: s.b - out } : { b: s.b + amountIn, a: s.a - out });
    return {
      entrypoint: 'Swap',
      value: pair(pair(int(out), str(user)), pair(str(tout.address), pair(int(0), int(amountIn)))),
    };
  }

  add(call: CallContext, user: string, a: bigint): { entrypoint: string; value: Micheline } {
    const [ta, tb] = this.tokens;
    ta.transfer(call, this.address, user, this.address, a);
    const { b } = this.deposit(call, user, a);
    tb.transfer(call, this.address, user, this.address, b);
    return { entrypoint: 'add_liquidity', value: pair(str(user), pair(int(a), int(b))) };
  }

  remove(call: CallContext, user: string, shares: bigint): { entrypoint: string; value: Micheline } {
    const out = this.withdraw(call, user, shares);
    this.tokens[0].transfer(call, this.address, this.address, user, out.a);
    this.tokens[1].transfer(call, this.address, this.address, user, out.b);
    return { entrypoint: 'remove_liquidity', value: pair(pair(int(shares), str(user)), pair(int(0), int(0))) };
  }
}

/** ctez's main contract, as far as the pool needs it: `get_target` calls back with the target price. */
class CtezMain implements ContractModel {
  readonly role = 'ctez_main';
  readonly code = script(
    entrypoints(['get_target', t('contract', undefined, t('nat'))], ['default', t('unit')]),
    t('nat', '%target'),
  );

  constructor(readonly address: string) {}

  storage(): Micheline {
    return int(TARGET);
  }
}

/**
 * The ctez/tez stable pool (ctez = A, tez = B): a swap stores the trade, asks ctez's target and settles in its
 * callback.
 */
export class CtezStablePool extends StablePool {
  readonly code = script(
    entrypoints(
      ['add_liquidity', P(t('nat', '%maxCashDeposited'), P(t('nat', '%minLqtMinted'), t('address', '%owner')))],
      ['ctez_to_tez', P(t('nat', '%cashSold'), P(t('nat', '%minTezBought'), t('address', '%recipient')))],
      ['ctez_to_tez_callback', t('nat')],
      ['remove_liquidity', P(t('nat', '%lqtBurned'), P(t('nat', '%minCashWithdrawn'), t('nat', '%minTezWithdrawn')))],
      ['tez_to_ctez', P(t('nat', '%minCashBought'), t('address', '%recipient'))],
      ['tez_to_ctez_callback', t('nat')],
    ),
    P(
      P(
        P(P(t('bool', '%Locked'), t('address', '%admin')), P(t('address', '%ctezAddress'), t('nat', '%ctezFee'))),
        P(
          P(t('nat', '%ctezPool'), t('address', '%ctez_admin')),
          P(t('nat', '%lpFee'), P(t('address', '%lqtAddress'), t('nat', '%lqtTotal'))),
        ),
      ),
      P(
        P(
          P(t('option', '%minAmount', t('nat')), t('bool', '%paused')),
          P(t('option', '%recipient', t('address')), t('option', '%sender', t('address'))),
        ),
        P(
          P(t('bool', '%state'), t('nat', '%tezPool')),
          P(t('option', '%tradeAmount', t('nat')), P(t('option', '%voterContract', t('address')), t('nat', '%xtzFee'))),
        ),
      ),
    ),
  );

  /** The trade a swap's opening call stored for its callback. */
  private pending?: { amount: bigint; recipient: string; sender: string };

  constructor(
    book: AccountBook,
    address: string,
    lqt: Fa12Token,
    readonly ctez: Fa12Token,
    private readonly main: CtezMain,
    private readonly admin: string,
  ) {
    super(book, address, 'plenty_stable_ctez', lqt);
  }

  storage(): Micheline {
    const s = this.state;
    const p = this.pending;
    const some = (v: Micheline | undefined) => (v === undefined ? none : prim('Some', [v]));
    return pair(
      pair(
        pair(pair(bool(false), str(this.admin)), pair(str(this.ctez.address), int(0))),
        pair(pair(int(s.a), str(this.main.address)), pair(int(LP_FEE), pair(str(this.lqt.address), int(s.lqtTotal)))),
      ),
      pair(
        pair(pair(none, bool(false)), pair(some(p && str(p.recipient)), some(p && str(p.sender)))),
        pair(pair(bool(false), int(s.b)), pair(some(p && int(p.amount)), pair(none, int(0)))),
      ),
    );
  }

  add(call: CallContext, transfer: BalanceUpdates, user: string, cash: bigint): AppliedCall {
    const { b: tez, shares } = this.deposit(call, user, cash);
    transfer.transfer(
      (b, c) => b.contract(user, c),
      (b, c) => b.contract(this.address, c),
      tez,
    );
    this.ctez.transfer(call, this.address, user, this.address, cash);
    return { entrypoint: 'add_liquidity', value: pair(int(cash), pair(int(shares), str(user))), amount: tez };
  }

  remove(call: CallContext, user: string, shares: bigint): { entrypoint: string; value: Micheline } {
    const out = this.withdraw(call, user, shares);
    this.ctez.transfer(call, this.address, this.address, user, out.a);
    call.pushTezTransfer(this.address, user, out.b);
    return { entrypoint: 'remove_liquidity', value: pair(int(shares), pair(int(0), int(0))) };
  }

  /**
   * A swap's two steps inside the user's call: the opening call (its result is built here, with the
   * trade stored), ctez's `get_target`, the callback that settles at the target, then the payments.
   */
  swap(call: CallContext, transfer: BalanceUpdates, user: string, tezIn: boolean, amount: bigint): AppliedCall {
    const entrypoint = tezIn ? 'tez_to_ctez' : 'ctez_to_tez';
    if (tezIn)
      transfer.transfer(
        (b, c) => b.contract(user, c),
        (b, c) => b.contract(this.address, c),
        amount,
      );
    this.pending = { amount, recipient: user, sender: user };
    const opened = call.contractResult(this, call.newDiff(), 9000, 0, transfer);
    call.pushCall(
      this.address,
      this.main,
      0n,
      'get_target',
      str(`${this.address}%${entrypoint}_callback`),
      call.contractResult(this.main, call.newDiff(), 2000, 0),
    );
    const s = this.state;
    const w = tezIn
      ? flatCurveOutput(s.b << 48n, TARGET * s.a, amount << 48n) / TARGET
      : flatCurveOutput(TARGET * s.a, s.b << 48n, TARGET * amount) >> 48n;
    const out = w - w / LP_FEE;
    this.pending = undefined;
    this.set(tezIn ? { b: s.b + amount, a: s.a - out } : { a: s.a + amount, b: s.b - out });
    call.pushCall(
      this.main.address,
      this,
      0n,
      `${entrypoint}_callback`,
      int(TARGET),
      call.contractResult(this, call.newDiff(), 9000, 0),
    );
    if (tezIn) this.ctez.transfer(call, this.address, this.address, user, out);
    else {
      this.ctez.transfer(call, this.address, user, this.address, amount);
      call.pushTezTransfer(this.address, user, out);
    }
    return {
      entrypoint,
      value: tezIn ? pair(int(0), str(user)) : pair(int(amount), pair(int(0), str(user))),
      amount: tezIn ? amount : 0n,
      result: opened,
    };
  }
}

const labelled = (contracts: ContractRegistry, label: keyof typeof PLENTY_STABLE_LABELS) =>
  contracts.derivedAddress(PLENTY_STABLE_LABELS[label]);

export function registerPlentyStable(contracts: ContractRegistry, book: AccountBook, errorPrefix: string): void {
  const admin = labelled(contracts, 'ctezMain');
  const main = contracts.add(new CtezMain(admin), 'ctez main');
  const tokenLp = contracts.add(
    new Fa12Token(book, labelled(contracts, 'tokenLp'), 'TZBTC-KUSD-SLP', 6, errorPrefix),
    'Plenty stable tzBTC/kUSD LP',
  );
  const ctezLp = contracts.add(
    new Fa12Token(book, labelled(contracts, 'ctezLp'), 'CTEZ-TEZ-SLP', 6, errorPrefix),
    'Plenty stable ctez/tez LP',
  );
  const tokens: [Fa12Token, Fa12Token] = [
    contracts.require(KNOWN_ADDRESSES.tzBTC),
    contracts.require(KNOWN_ADDRESSES.kUSD),
  ];
  contracts.add(
    new TokenStablePool(book, labelled(contracts, 'tokenPool'), tokenLp, tokens, admin),
    'Plenty stable tzBTC/kUSD',
  );
  contracts.add(
    new CtezStablePool(
      book,
      labelled(contracts, 'ctezPool'),
      ctezLp,
      contracts.require(KNOWN_ADDRESSES.ctez),
      main,
      admin,
    ),
    'Plenty stable ctez/tez',
  );
}

const pools = (contracts: ContractRegistry): [TokenStablePool, CtezStablePool] => [
  contracts.require(labelled(contracts, 'tokenPool')),
  contracts.require(labelled(contracts, 'ctezPool')),
];

/** Originates ctez's main contract, both LP tokens and both pools, whose first shares go to the first holders. */
export function seedPlentyStable(g: GenesisContext): void {
  const main = g.contracts.require<CtezMain>(labelled(g.contracts, 'ctezMain'));
  g.originate(main, 0n, () => undefined);
  const [tokenPool, ctezPool] = pools(g.contracts);
  // Empty, with their opening prices: the first deposit of the traffic opens each.
  const seed = (pool: StablePool, opening: [bigint, bigint]) => {
    g.originate(pool.lqt, 0n, (diff) => pool.lqt.init(diff));
    g.originate(pool, 0n, () => g.book.setState<Reserves>(pool.address, { a: 0n, b: 0n, lqtTotal: 0n, opening }));
  };
  seed(tokenPool, [1n, 1n]);
  seed(ctezPool, [400_000n, 420_000n]);
}

/** An account that can trade or deposit `tk` (tez when undefined): 100 tez for fees and tez legs, 3 units of it. */
const holds = (tk: Fa12Token | undefined) => (x: { address: string; balance: bigint }) =>
  x.balance > 100n * TEZ && (!tk || tk.balanceOf(x.address) > 2n);

/**
 * A deposit by `source` into the tzBTC/kUSD pool (`onTokens`) or the ctez/tez one, at most half of what it holds
 * of either side, at the pool's price (its opening price while empty).
 */
export function plentyStableDeposit(
  ctx: BlockContext,
  onTokens: boolean,
  source: Account,
): Record<string, unknown> | undefined {
  const [tokenPool, ctezPool] = pools(ctx.contracts);
  const pool: StablePool = onTokens ? tokenPool : ctezPool;
  const [ta, tb] = onTokens ? tokenPool.tokens : [ctezPool.ctez, undefined];
  if (!holds(ta)(source) || !holds(tb)(source)) return undefined;
  const user = source.address;
  const [pa, pb] = pool.price();
  const heldB = tb ? tb.balanceOf(user) : source.balance / 10n;
  const byB = ((heldB / 2n) * pa) / pb;
  const a = byB < ta.balanceOf(user) / 2n ? byB : ta.balanceOf(user) / 2n;
  if (a < 2n) return undefined;
  return new ManagerGroupBuilder(ctx).build(user, [
    contractCall(ctx, user, pool, 20000, (call, transfer) =>
      onTokens ? tokenPool.add(call, user, a) : ctezPool.add(call, transfer, user, a),
    ),
  ]);
}

/**
 * Plenty stable traffic: swaps both ways on each pool (ctez/tez swaps settle through ctez's
 * `get_target` callback), deposits and withdrawals; LP shares move only through the pools.
 */
export function plentyStableCall(ctx: BlockContext): Record<string, unknown> | undefined {
  const { prng } = ctx;
  const [tokenPool, ctezPool] = pools(ctx.contracts);
  const onTokens = prng.float() < 0.5;
  const pool: StablePool = onTokens ? tokenPool : ctezPool;
  const [ta, tb] = onTokens ? tokenPool.tokens : [ctezPool.ctez, undefined];
  // An empty pool is opened first: a deposit.
  const action = pool.state.lqtTotal === 0n ? 0.6 : prng.float();
  let source;
  let run: (call: CallContext, transfer: BalanceUpdates, user: string) => AppliedCall;
  if (action < 0.5) {
    const sellA = prng.float() < 0.5;
    const tin = sellA ? ta : tb;
    source = pickSource(ctx, holds(tin), false);
    if (!source) return undefined;
    const amount = 1n + prng.bigRange(0n, (tin ? tin.balanceOf(source.address) : source.balance / 5n) / 4n);
    run = (call, transfer, user) =>
      onTokens ? tokenPool.swap(call, user, sellA, amount) : ctezPool.swap(call, transfer, user, !sellA, amount);
  } else if (action < 0.75) {
    source = pickSource(ctx, (x) => holds(ta)(x) && holds(tb)(x), false);
    return source && plentyStableDeposit(ctx, onTokens, source);
  } else {
    source = pickSource(ctx, (x) => x.balance > TEZ && pool.lqt.balanceOf(x.address) > 2n, false);
    if (!source) return undefined;
    const shares = 1n + prng.bigRange(0n, pool.lqt.balanceOf(source.address) / 3n);
    run = (call, _transfer, user) =>
      onTokens ? tokenPool.remove(call, user, shares) : ctezPool.remove(call, user, shares);
  }
  const user = source.address;
  return new ManagerGroupBuilder(ctx).build(user, [
    contractCall(ctx, user, pool, 20000, (call, transfer) => run(call, transfer, user)),
  ]);
}
