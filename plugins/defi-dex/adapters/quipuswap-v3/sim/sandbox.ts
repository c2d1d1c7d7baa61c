import {
  type AccountBook,
  type BlockContext,
  CallContext,
  ContentFailure,
  type ContractModel,
  type ContractRegistry,
  entrypoints,
  type Fa12Token,
  type GenesisContext,
  int,
  KNOWN_ADDRESSES,
  type LazyStorageDiff,
  ManagerGroupBuilder,
  type ManagerContent,
  type Micheline,
  pair,
  pairT,
  pickSource,
  prim,
  script,
  scriptRejected,
  str,
  tAddress,
  tBigMap,
  tInt,
  tNat,
  tTimestamp,
} from '../../../../../framework/sandbox/extension';
import { amountsFor, sqrtAt, swap, type Tick } from './clmm';

/** Seed label of the sandbox's QuipuSwap V3 ctez (X) / kUSD (Y) pool. */
export const QUIPU_V3_LABEL = 'quipuswap-v3-pool';
/** QuipuSwap V3's mainnet factory (the pool's `constants.factory_address`). */
const FACTORY = 'KT1JNNMMGyNNy36Zo6pcgRTMLUZyqRrttMZ4';
const FEE_BPS = 30n;
const SPACING = 10;
/** About 100 raw kUSD (8 decimals in the sandbox) per raw ctez (6). */
const START_TICK = 46050;

interface Position {
  id: number;
  lower: number;
  upper: number;
  owner: string;
  liquidity: bigint;
}

interface V3State {
  liquidity: bigint;
  sqrtPrice: bigint;
  tick: number;
  ticks: Tick[];
  positions: Position[];
  ticksMap: number;
  positionsMap: number;
}

/** A pair type carrying a field annotation of its own. */
function named(type: Micheline, annot: string): Micheline {
  if (Array.isArray(type) || !('prim' in type)) throw new Error('quipuswap-v3: not a type node');
  return { ...type, annots: [annot] };
}
const ASSET = (annot: string) =>
  prim('or', [tAddress('%fa12'), named(pairT(tNat('%token_id'), tAddress('%token_address')), '%fa2')], [annot]);
const BALANCE = named(pairT(tNat('%x'), tNat('%y')), '%maximum_tokens_contributed');
const TICK = pairT(tInt('%prev'), tInt('%next'), tInt('%liquidity_net'), tNat('%n_positions'), tNat('%sqrt_price'));
const POSITION = pairT(tInt('%lower_tick_index'), tInt('%upper_tick_index'), tAddress('%owner'), tNat('%liquidity'));
const FA2_TRANSFER = prim('list', [
  pairT(tAddress('%from_'), prim('list', [pairT(tAddress('%to_'), tNat('%token_id'), tNat('%amount'))], ['%txs'])),
]);
const PARAMETER = entrypoints(
  [
    'set_position',
    pairT(
      tInt('%lower_tick_index'),
      tInt('%upper_tick_index'),
      tInt('%lower_tick_witness'),
      tInt('%upper_tick_witness'),
      tNat('%liquidity'),
      tTimestamp('%deadline'),
      BALANCE,
      tNat('%referral_code'),
    ),
  ],
  ['transfer', FA2_TRANSFER],
  [
    'update_position',
    pairT(
      tNat('%position_id'),
      tInt('%liquidity_delta'),
      tAddress('%to_x'),
      tAddress('%to_y'),
      tTimestamp('%deadline'),
      BALANCE,
      tNat('%referral_code'),
    ),
  ],
  ['x_to_y', pairT(tNat('%dx'), tTimestamp('%deadline'), tNat('%min_dy'), tAddress('%to_dy'), tNat('%referral_code'))],
  ['y_to_x', pairT(tNat('%dy'), tTimestamp('%deadline'), tNat('%min_dx'), tAddress('%to_dx'), tNat('%referral_code'))],
);
/**
 * The real storage's fields the indexer reads, with their names (the sandbox leaves out the oracle and fee-growth
 * parts).
 */
const STORAGE = pairT(
  tNat('%liquidity'),
  tNat('%sqrt_price'),
  tInt('%cur_tick_index'),
  tBigMap(tInt(), TICK, '%ticks'),
  tBigMap(tNat(), POSITION, '%positions'),
  tNat('%new_position_id'),
  named(
    pairT(tNat('%fee_bps'), ASSET('%token_x'), ASSET('%token_y'), tAddress('%factory_address'), tNat('%tick_spacing')),
    '%constants',
  ),
);

/**
 * A QuipuSwap V3 pool with the real entrypoints and storage names: ticks with their net liquidity,
 * positions with a price range, swaps that cross ticks (`clmm.ts`), the fee taken from the input and
 * left in the pool. Fees are not paid out to positions (no fee growth): removals return the principal.
 */
export class QuipuV3Pool implements ContractModel {
  readonly role = 'quipuswap_v3';
  readonly service = 'dex';
  readonly code = script(PARAMETER, STORAGE);

  constructor(
    private readonly book: AccountBook,
    readonly address: string,
    readonly x: Fa12Token,
    readonly y: Fa12Token,
  ) {}

  get state(): V3State {
    return this.book.state<V3State>(this.address);
  }

  init(diff: LazyStorageDiff): void {
    this.book.setState<V3State>(this.address, {
      liquidity: 0n,
      sqrtPrice: sqrtAt(START_TICK),
      tick: START_TICK,
      ticks: [],
      positions: [],
      ticksMap: diff.alloc(tInt(), TICK),
      positionsMap: diff.alloc(tNat(), POSITION),
    });
  }

  storage(): Micheline {
    const s = this.state;
    const constants = pair(
      int(FEE_BPS),
      prim('Left', [str(this.x.address)]),
      prim('Left', [str(this.y.address)]),
      str(FACTORY),
      int(SPACING),
    );
    return pair(
      int(s.liquidity),
      int(s.sqrtPrice),
      int(s.tick),
      int(s.ticksMap),
      int(s.positionsMap),
      int(s.positions.length),
      constants,
    );
  }

  /** A swap of `amount` (fee included); undefined when the liquidity would run out. */
  swap(
    call: CallContext,
    diff: LazyStorageDiff,
    user: string,
    xIn: boolean,
    amount: bigint,
  ): { entrypoint: string; value: Micheline } | undefined {
    const s = this.state;
    const r = swap(xIn, amount - (amount * FEE_BPS) / 10000n, s.sqrtPrice, s.liquidity, s.tick, s.ticks);
    if (!r || r.out === 0n) return undefined;
    const [tin, tout] = xIn ? [this.x, this.y] : [this.y, this.x];
    tin.transfer(call, this.address, user, this.address, amount);
    tout.transfer(call, this.address, this.address, user, r.out);
    this.book.setState<V3State>(this.address, { ...s, sqrtPrice: r.sqrtPrice, liquidity: r.liquidity, tick: r.tick });
    // Crossing a tick updates its record (the real contract's time and fee accumulators).
    for (const i of r.crossed) this.putTick(diff, s.ticks, i);
    const deadline = str(new Date(Date.parse(call.ctx.timestamp) + 20 * 60_000).toISOString().replace('.000Z', 'Z'));
    return { entrypoint: xIn ? 'x_to_y' : 'y_to_x', value: pair(int(amount), deadline, int(r.out), str(user), int(0)) };
  }

  /** Changes the liquidity of position `id` (a new one when undefined) by `delta`; tokens move in or out. */
  position(
    call: CallContext,
    diff: LazyStorageDiff,
    user: string,
    range: [number, number],
    delta: bigint,
    id?: number,
  ): { entrypoint: string; value: Micheline; grown: number } {
    const s = this.state;
    const [lower, upper] = range;
    const [x, y] = amountsFor(delta < 0n ? -delta : delta, s.sqrtPrice, sqrtAt(lower), sqrtAt(upper), delta > 0n);
    if (delta > 0n) {
      if (x > 0n) this.x.transfer(call, this.address, user, this.address, x);
      if (y > 0n) this.y.transfer(call, this.address, user, this.address, y);
    } else {
      if (x > 0n) this.x.transfer(call, this.address, this.address, user, x);
      if (y > 0n) this.y.transfer(call, this.address, this.address, user, y);
    }
    const ticks = this.edge(this.edge(s.ticks, lower, delta, id === undefined), upper, -delta, id === undefined);
    const positions =
      id === undefined
        ? [...s.positions, { id: s.positions.length, lower, upper, owner: user, liquidity: delta }]
        : s.positions.map((p) => (p.id === id ? { ...p, liquidity: p.liquidity + delta } : p));
    const inRange = lower <= s.tick && s.tick < upper;
    this.book.setState<V3State>(this.address, {
      ...s,
      ticks,
      positions,
      liquidity: s.liquidity + (inRange ? delta : 0n),
    });
    const grown = (id === undefined ? 1 : 0) + [lower, upper].filter((i) => !s.ticks.some((t) => t.index === i)).length;
    for (const i of [lower, upper]) this.putTick(diff, ticks, i);
    const p = positions.find((q) => q.id === (id ?? s.positions.length))!;
    diff.update(s.positionsMap, int(p.id), pair(int(p.lower), int(p.upper), str(p.owner), int(p.liquidity)));
    const deadline = str(new Date(Date.parse(call.ctx.timestamp) + 20 * 60_000).toISOString().replace('.000Z', 'Z'));
    const max = pair(int(x), int(y));
    if (id === undefined)
      return {
        grown,
        entrypoint: 'set_position',
        value: pair(
          int(lower),
          int(upper),
          int(this.witness(lower)),
          int(this.witness(upper)),
          int(delta),
          deadline,
          max,
          int(0),
        ),
      };
    return {
      grown,
      entrypoint: 'update_position',
      value: pair(int(id), int(delta), str(user), str(user), deadline, max, int(0)),
    };
  }

  /** The highest initialized tick at or below `i` (the call's witness); the minimal tick when none. */
  private witness(i: number): number {
    return [...this.state.ticks].reverse().find((t) => t.index <= i)?.index ?? -1048575;
  }

  private edge(ticks: Tick[], index: number, net: bigint, opens: boolean): Tick[] {
    const found = ticks.find((t) => t.index === index);
    if (found)
      return ticks.map((t) =>
        t.index === index ? { ...t, net: t.net + net, positions: t.positions + (opens ? 1 : 0) } : t,
      );
    return [...ticks, { index, net, positions: 1 }].sort((a, b) => a.index - b.index);
  }

  private putTick(diff: LazyStorageDiff, ticks: Tick[], index: number): void {
    const at = ticks.findIndex((t) => t.index === index);
    const t = ticks[at];
    diff.update(
      this.state.ticksMap,
      int(index),
      pair(
        int(ticks[at - 1]?.index ?? -1048575),
        int(ticks[at + 1]?.index ?? 1048575),
        int(t.net),
        int(t.positions),
        int(sqrtAt(index)),
      ),
    );
  }
}

export function registerQuipuswapV3(contracts: ContractRegistry, book: AccountBook): void {
  const pool = new QuipuV3Pool(
    book,
    contracts.derivedAddress(QUIPU_V3_LABEL),
    contracts.require<Fa12Token>(KNOWN_ADDRESSES.ctez),
    contracts.require<Fa12Token>(KNOWN_ADDRESSES.kUSD),
  );
  contracts.add(pool, 'QuipuSwap V3 ctez/kUSD');
}

export const quipuswapV3Pool = (contracts: ContractRegistry): QuipuV3Pool =>
  contracts.require(contracts.derivedAddress(QUIPU_V3_LABEL));

/** The pool starts empty, as a factory deploys it: its first positions come with the traffic. */
export function originateQuipuswapV3(g: GenesisContext): void {
  const pool = quipuswapV3Pool(g.contracts);
  g.originate(pool, 0n, (diff) => pool.init(diff));
}

/**
 * V3 traffic: new positions over ranges of 1–40 tick spacings on either side of the price (so swaps
 * cross their edges), swaps both ways, and partial or full removals.
 */
export function quipuswapV3Call(ctx: BlockContext): Record<string, unknown> | undefined {
  const { prng } = ctx;
  const pool = quipuswapV3Pool(ctx.contracts);
  const s = pool.state;
  const roll = s.positions.length < 3 ? 0 : prng.float();
  const source = pickSource(
    ctx,
    (a) => a.balance > 1_000_000n && pool.x.balanceOf(a.address) > 0n && pool.y.balanceOf(a.address) > 0n,
    false,
  );
  if (!source) return undefined;
  const user = source.address;
  let run: (
    call: CallContext,
    diff: LazyStorageDiff,
  ) => { entrypoint: string; value: Micheline; grown?: number } | undefined;
  if (roll < 0.3) {
    const base = Math.floor(s.tick / SPACING) * SPACING;
    const range: [number, number] = [base - SPACING * prng.range(1, 20), base + SPACING * prng.range(1, 20)];
    // Liquidity that takes up to a tenth of the user's X (the Y it needs is checked against their balance).
    const [x1, y1] = amountsFor(1_000_000_000n, s.sqrtPrice, sqrtAt(range[0]), sqrtAt(range[1]), true);
    const l = (1_000_000_000n * (pool.x.balanceOf(user) / 10n)) / (x1 > 0n ? x1 : 1n);
    if (l === 0n || (l * y1) / 1_000_000_000n > pool.y.balanceOf(user) / 2n) return undefined;
    run = (call, diff) => pool.position(call, diff, user, range, l);
  } else if (roll < 0.45) {
    const mine = s.positions.filter((p) => p.liquidity > 0n && !ctx.usedSources.has(p.owner));
    if (mine.length === 0) return undefined;
    const p = prng.pick(mine);
    const delta = prng.chance(0.5) ? p.liquidity : 1n + prng.bigRange(0n, p.liquidity - 1n);
    return build(ctx, pool, p.owner, (call, diff) =>
      pool.position(call, diff, p.owner, [p.lower, p.upper], -delta, p.id),
    );
  } else {
    const xIn = prng.chance(0.5);
    const amount = 1n + prng.bigRange(0n, (xIn ? pool.x : pool.y).balanceOf(user) / 3n);
    // A swap the liquidity cannot fill is not sent.
    if (!swap(xIn, amount, s.sqrtPrice, s.liquidity, s.tick, s.ticks)) return undefined;
    run = (call, diff) => pool.swap(call, diff, user, xIn, amount);
  }
  return build(ctx, pool, user, run);
}

function build(
  ctx: BlockContext,
  pool: QuipuV3Pool,
  user: string,
  run: (
    call: CallContext,
    diff: LazyStorageDiff,
  ) => { entrypoint: string; value: Micheline; grown?: number } | undefined,
): Record<string, unknown> {
  // Parameters depend on the pool state when the content applies, so apply() fills them in.
  const content: ManagerContent = {
    kind: 'transaction',
    fields: { amount: '0', destination: pool.address },
    gasLimit: 12000,
    storageLimit: 500,
    apply: () => {
      const call = new CallContext(ctx, user);
      const diff = call.newDiff();
      const done = run(call, diff);
      if (!done)
        throw new ContentFailure(scriptRejected(ctx.identity.errorPrefix, pool.address, str('not enough liquidity')));
      content.fields.parameters = { entrypoint: done.entrypoint, value: done.value };
      return { result: call.contractResult(pool, diff, 12000, done.grown ?? 0), internal: call.internal };
    },
  };
  return new ManagerGroupBuilder(ctx).build(user, [content]);
}
