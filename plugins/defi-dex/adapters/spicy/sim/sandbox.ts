import {
  type Account,
  type AccountBook,
  BalanceUpdates,
  type BlockContext,
  CallContext,
  type ContractModel,
  type ContractRegistry,
  entrypoints,
  type Fa12Token,
  type GenesisContext,
  int,
  KNOWN_ADDRESSES,
  ManagerGroupBuilder,
  type ManagerContent,
  type Micheline,
  pair,
  pairT,
  pickSource,
  prim,
  script,
  str,
  tAddress,
  tBigMap,
  TEZ,
} from '../../../../../framework/sandbox/extension';
import { deadline, type LedgerCall } from '../../../sim/cpmm/ReservePool';
import { seedPool } from '../../../sim/cpmm/seedPool';
import { contractCall } from '../../../sim/cpmm/traffic';
import { ROUTER_ENTRYPOINTS, SPICY_ROUTER } from '../types';
import { SpicyPair } from './pair';

/** Seed labels of the two sandbox pairs: ctez/kUSD and kUSD/tzBTC (a ctez → tzBTC path crosses both). */
export const SPICY_LABELS = { ctezKusd: 'spicy-ctez-kusd', kusdTzbtc: 'spicy-kusd-tzbtc' } as const;

const token = (t: Fa12Token): Micheline => pair(str(t.address), prim('None'));

/**
 * SpicySwap's router at its mainnet address, with its mainnet entrypoint types. A call runs like the
 * real one: the router's finalize callback, the tokens it pays into the pair, then the pair's call
 * and what the pair pays out. Its storage is the `pairs` big map (token0, token1) → pair.
 */
class SpicyRouter implements ContractModel {
  readonly address = SPICY_ROUTER;
  readonly role = 'spicy_router';
  readonly service = 'dex';
  readonly code = script(
    entrypoints(...Object.entries(ROUTER_ENTRYPOINTS)),
    tBigMap(pairT(tAddress(), tAddress()), tAddress(), '%pairs'),
  );

  constructor(private readonly book: AccountBook) {}

  init(g: GenesisContext, pairs: SpicyPair[]): void {
    g.originate(this, 0n, (diff) => {
      const id = diff.alloc(pairT(tAddress(), tAddress()), tAddress());
      for (const p of pairs) diff.update(id, pair(str(p.token.address), str(p.token1.address)), str(p.address));
      this.book.setState(this.address, { pairs: id });
    });
  }

  storage(): Micheline {
    return int(this.book.state<{ pairs: number }>(this.address).pairs);
  }

  /**
   * Applies one routed call of `pool` inside `call`: the finalize callback with the user's parameters,
   * then `run` on the pair; tokens the router moved come before the pair's call, the pair's own after.
   */
  route(
    call: CallContext,
    finalize: string,
    value: Micheline,
    pool: SpicyPair,
    run: (inner: CallContext) => LedgerCall,
  ): void {
    call.pushCall(this.address, this, 0n, finalize, value, call.contractResult(this, call.newDiff(), 4000, 0));
    const inner = new CallContext(call.ctx, call.payer);
    const planned = run(inner);
    call.internal.push(...inner.internal.filter((o) => o.source !== pool.address));
    call.pushCall(
      this.address,
      pool,
      0n,
      planned.entrypoint,
      planned.value,
      call.contractResult(pool, pool.pending.take(call), 9000, planned.grown),
    );
    call.internal.push(...inner.internal.filter((o) => o.source === pool.address));
  }
}

export function registerSpicy(contracts: ContractRegistry, book: AccountBook): void {
  const [ctez, kusd, tzbtc] = [KNOWN_ADDRESSES.ctez, KNOWN_ADDRESSES.kUSD, KNOWN_ADDRESSES.tzBTC].map((a) =>
    contracts.require<Fa12Token>(a),
  );
  contracts.add(new SpicyRouter(book), 'SpicySwap router');
  const pairOf = (label: string, a: Fa12Token, b: Fa12Token) =>
    new SpicyPair(book, contracts.derivedAddress(label), a, b);
  contracts.add(pairOf(SPICY_LABELS.ctezKusd, ctez, kusd), 'Spicy ctez/kUSD');
  contracts.add(pairOf(SPICY_LABELS.kusdTzbtc, kusd, tzbtc), 'Spicy kUSD/tzBTC');
}

export const spicyPairs = (contracts: ContractRegistry): [SpicyPair, SpicyPair] => [
  contracts.require(contracts.derivedAddress(SPICY_LABELS.ctezKusd)),
  contracts.require(contracts.derivedAddress(SPICY_LABELS.kusdTzbtc)),
];

export function seedSpicy(g: GenesisContext): void {
  const [a, b] = spicyPairs(g.contracts);
  seedPool(g, a);
  seedPool(g, b);
  g.contracts.require<SpicyRouter>(SPICY_ROUTER).init(g, [a, b]);
}

/** The router's swap of `amountIn` of `pool`'s token A (`sellA`) or B: exact-in or exact-out, same pair call. */
function swapContent(
  ctx: BlockContext,
  router: SpicyRouter,
  user: string,
  pool: SpicyPair,
  sellA: boolean,
  amountIn: () => bigint,
  exactOut: boolean,
): ManagerContent {
  return contractCall(ctx, user, router, 12000, (call) => {
    const amount = amountIn();
    const out = pool.quote(sellA, amount);
    const [tin, tout] = sellA ? [pool.token, pool.token1] : [pool.token1, pool.token];
    // (amountIn, amountOutMin) or (amountInMax, amountOut): the same values either way.
    const value = pair(pair(pair(str(user), int(amount)), int(out), deadline(ctx.timestamp)), token(tin), token(tout));
    router.route(call, exactOut ? 'fin_tokens_for_exact' : 'fin_exact_for_tokens', value, pool, (inner) => ({
      ...pool.swap(inner, user, sellA, amount),
      grown: 0,
    }));
    return { entrypoint: exactOut ? 'swap_tokens_for_exact' : 'swap_exact_for_tokens', value };
  });
}

/**
 * A deposit by `source` through the router, at most half of either token it holds: the first into an empty pair
 * brings half of each (its price), later ones follow the reserves' ratio.
 */
export function spicyDeposit(ctx: BlockContext, pool: SpicyPair, source: Account): Record<string, unknown> | undefined {
  const router = ctx.contracts.require<SpicyRouter>(SPICY_ROUTER);
  const [a, b] = [pool.token, pool.token1];
  const user = source.address;
  if (a.balanceOf(user) < 2n || b.balanceOf(user) < 2n) return undefined;
  return new ManagerGroupBuilder(ctx).build(user, [
    contractCall(ctx, user, router, 12000, (call) => {
      const s = pool.state;
      const [halfA, halfB] = [a.balanceOf(user) / 2n, b.balanceOf(user) / 2n];
      // The first deposit sets the price: half of each token.
      const byA = s.lqtTotal === 0n ? halfB : (halfA * s.otherPool) / s.tokenPool;
      const other = byA < halfB ? byA : halfB;
      const tokens = pool.tokensFor(other, halfA);
      const value = pair(
        pair(pair(str(user), int(tokens)), int(tokens), int(other)),
        pair(int(other), deadline(ctx.timestamp)),
        token(a),
        token(b),
      );
      router.route(call, 'finalize_add_liquidity', value, pool, (inner) =>
        pool.addLiquidity(inner, user, other, new BalanceUpdates(ctx.book), tokens),
      );
      return { entrypoint: 'add_liquidity_route', value };
    }),
  ]);
}

/**
 * Spicy traffic: router swaps (exact in or exact out; sometimes ctez → kUSD → tzBTC over both pairs,
 * one router call per pair in one group), liquidity through the router, and LP transfers between
 * holders on the pair's own FA2 ledger.
 */
export function spicyCall(ctx: BlockContext): Record<string, unknown> | undefined {
  const { prng, contracts } = ctx;
  const router = contracts.require<SpicyRouter>(SPICY_ROUTER);
  const pairs = spicyPairs(contracts);
  // An empty pair is opened first (its first deposit, at its opening price), then both trade.
  const empty = pairs.find((p) => p.state.lqtTotal === 0n);
  const pool = empty ?? prng.pick(pairs);
  const [a, b] = [pool.token, pool.token1];
  const action = empty ? 0.6 : prng.float();
  const has = (t: Fa12Token) => (x: { address: string; balance: bigint }) =>
    x.balance > TEZ && t.balanceOf(x.address) > 1n;
  if (action < 0.3) {
    const sellA = prng.float() < 0.5;
    const tin = sellA ? a : b;
    const source = pickSource(ctx, has(tin), false);
    if (!source) return undefined;
    const amount = 1n + prng.bigRange(0n, tin.balanceOf(source.address) / 4n);
    return new ManagerGroupBuilder(ctx).build(source.address, [
      swapContent(ctx, router, source.address, pool, sellA, () => amount, prng.float() < 0.5),
    ]);
  }
  if (action < 0.55) {
    // ctez → kUSD on the first pair, then the kUSD received → tzBTC on the second.
    const [first, second] = pairs;
    const source = pickSource(ctx, has(first.token), false);
    if (!source) return undefined;
    const user = source.address;
    const amount = 1n + prng.bigRange(0n, first.token.balanceOf(user) / 4n);
    const kusd = second.token;
    let held = 0n;
    const before = () => {
      held = kusd.balanceOf(user);
      return amount;
    };
    const hop1 = swapContent(ctx, router, user, first, true, before, false);
    const hop2 = swapContent(ctx, router, user, second, true, () => kusd.balanceOf(user) - held, false);
    return new ManagerGroupBuilder(ctx).build(user, [hop1, hop2]);
  }
  if (action < 0.7) {
    const source = pickSource(ctx, (x) => has(a)(x) && has(b)(x), false);
    return source && spicyDeposit(ctx, pool, source);
  }
  const source = pickSource(ctx, (x) => x.balance > TEZ && pool.sharesOf(x.address) > 2n, false);
  if (!source) return undefined;
  const user = source.address;
  const shares = 1n + prng.bigRange(0n, pool.sharesOf(user) / 3n);
  if (action < 0.82) {
    return new ManagerGroupBuilder(ctx).build(user, [
      contractCall(ctx, user, router, 12000, (call) => {
        const value = pair(
          pair(pair(str(user), int(0)), int(0), deadline(ctx.timestamp)),
          pair(int(shares), token(a)),
          token(b),
        );
        router.route(call, 'finalize_remove_liquidity', value, pool, (inner) => {
          // The router sends the user's shares to the pair, whose `remove_liquidity` burns what it holds.
          const grown = pool.transferShares(inner, user, pool.address, shares);
          inner.pushCall(
            SPICY_ROUTER,
            pool,
            0n,
            'transfer',
            lpTransfer(user, pool.address, shares),
            inner.contractResult(pool, pool.pending.take(inner), 4000, grown),
          );
          return pool.removeLiquidity(inner, user, shares, pool.address);
        });
        return { entrypoint: 'remove_liquidity_route', value };
      }),
    ]);
  }
  const to = prng.pick(ctx.book.allAddresses().filter((x) => x.startsWith('tz') && x !== user));
  return new ManagerGroupBuilder(ctx).build(user, [
    contractCall(ctx, user, pool, 4000, (call) => {
      const grown = pool.transferShares(call, user, to, shares);
      return { entrypoint: 'transfer', value: lpTransfer(user, to, shares), grown, diff: pool.pending.take(call) };
    }),
  ]);
}

/** The pair's FA2 `transfer` of `amount` LP shares (token 0). */
const lpTransfer = (from: string, to: string, amount: bigint): Micheline => [
  pair(str(from), [pair(str(to), int(0), int(amount))]),
];
