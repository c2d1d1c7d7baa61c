import {
  plainValue,
  type BigMapDiff,
  type GroupMatch,
  type HandlerRegistry,
  type IndexContext,
  type MatchedStep,
} from '../../../../framework';
import type {
  DexAction,
  DexAdapter,
  DexPoolDecl,
  DexPoolKey,
  DexSink,
  DexSupply,
  DexTokenRef,
} from '../../core/DexAdapter';
import { PoolCall } from '../../../../framework/defi';
import { signaturePools } from '../../core/SignaturePools';
import { QUIPU_V3_CALLS, QUIPU_V3_POOL } from './types';

const ROLE = 'defi-dex:quipuswap-v3';
const CALLS = QUIPU_V3_CALLS;

/**
 * A pool token in the storage: QuipuSwap V3 `or (address %fa12) (pair %fa2 (nat %token_id) (address %token_address))`.
 */
type AssetOr = { fa12?: unknown; fa2?: { token_id?: unknown; token_address?: unknown } };

/** The fields of a V3 pool storage the adapter reads (names as the contracts annotate them). */
interface V3Storage {
  liquidity: bigint;
  sqrt_price: bigint;
  /** The positions big map's id (an origination's initial storage has its literal instead). */
  positions: unknown;
  constants: {
    fee_bps: bigint;
    /** QuipuSwap V3 (`token_x`/`token_y`)… */
    token_x?: AssetOr;
    token_y?: AssetOr;
    /** …or segmented-CFMM builds (Plenty V3): FA2 address and id. */
    x_token_address?: string;
    x_token_id?: bigint;
    y_token_address?: string;
    y_token_id?: bigint;
  };
}

/** Its place among the adapters (framework `discoverFolders`), kept from before discovery: records keep their order. */
export const order = 6;

/**
 * QuipuSwap V3 concentrated-liquidity pools (entity `quipu_v3`): one contract per pool (pair id 0),
 * token X = A (base), Y = B (quote). Claimed at origination (the factory's `deploy_pool`) by their
 * entrypoints, or recognized at their first call. There are no reserves in the storage: a pool's
 * supplies are the tokens it holds, kept as the running sum of what its own calls moved in and out;
 * `lpSupply` is the active `liquidity` of the storage after the call. Positions are NFTs of the pool;
 * a depositor's shares are the liquidity of their positions.
 */
export const quipuswapV3Adapter: DexAdapter = {
  name: 'quipuswap-v3',
  entities: ['quipu_v3'],
  // `tzidx check defi`: the storage holds no reserves (they are the tokens the pool holds), only its `liquidity`.
  storageSupply: {
    types: [QUIPU_V3_POOL.types],
    read: (v) => {
      const s = poolStorage(v);
      return s && { lpSupply: s.liquidity };
    },
  },
  register(r: HandlerRegistry, sink: DexSink): void {
    r.knownCode(QUIPU_V3_POOL);
    signaturePools(r, ROLE, CALLS, CALLS, {
      storage: poolStorage,
      // A new pool holds no tokens: they come with the first position.
      originated: (ctx, m, step, s) =>
        sink.pool(
          ctx,
          declaration(step.contract, s, m.signer),
          { reserves: [0n, 0n], lpSupply: s.liquidity, marginal: marginal(s) },
          { match: m, step },
        ),
      async called(ctx, m, step, s, key) {
        const call = new PoolCall(m, step);
        const moved = movedBy(call, s);
        const supply = await supplyAfter(ctx, sink, key, s, moved, m, step);
        const action = decode(call, step, s, moved);
        if (action) await sink.action(ctx, key, action, supply, { match: m, step });
      },
    });
  },
};

function poolStorage(v: unknown): V3Storage | undefined {
  const s = v as Partial<V3Storage> | undefined;
  const c = s?.constants;
  const tokens =
    (c?.token_x && c.token_y) || (typeof c?.x_token_address === 'string' && typeof c.y_token_address === 'string');
  return typeof s?.liquidity === 'bigint' &&
    typeof s.sqrt_price === 'bigint' &&
    typeof c?.fee_bps === 'bigint' &&
    tokens
    ? (s as V3Storage)
    : undefined;
}

/** The pools' tokens are FA1.2 or FA2 (tez is wrapped). */
type FaToken = Exclude<DexTokenRef, { standard: 'tez' }>;

function asset(or: AssetOr | undefined, address: string | undefined, id: bigint | undefined): FaToken {
  if (typeof or?.fa12 === 'string') return { standard: 'fa1.2', contract: or.fa12 };
  if (or?.fa2 && typeof or.fa2.token_address === 'string' && typeof or.fa2.token_id === 'bigint')
    return { standard: 'fa2', contract: or.fa2.token_address, tokenId: or.fa2.token_id };
  return { standard: 'fa2', contract: String(address), tokenId: id ?? 0n };
}

function tokens(s: V3Storage): [FaToken, FaToken] {
  const c = s.constants;
  return [asset(c.token_x, c.x_token_address, c.x_token_id), asset(c.token_y, c.y_token_address, c.y_token_id)];
}

function declaration(contract: string, s: V3Storage, creator: string | undefined): DexPoolDecl {
  return {
    contract,
    pairId: 0,
    entity: 'quipu_v3',
    tokens: tokens(s),
    lp: null,
    feesBps: String(s.constants.fee_bps),
    creator,
  };
}

/** What the call moved per token (X, Y): into the pool and out of it, from the pool's own transfers. */
interface Moved {
  in: [bigint, bigint];
  out: [bigint, bigint];
}

function movedBy(call: PoolCall, s: V3Storage): Moved {
  const [x, y] = tokens(s);
  // FA1.2 moves are read as token id 0.
  const m = (t: FaToken, d: 'in' | 'out') => call.tokens(t.contract, t.standard === 'fa2' ? t.tokenId : 0n, d);
  return { in: [m(x, 'in'), m(y, 'in')], out: [m(x, 'out'), m(y, 'out')] };
}

/**
 * The supplies after the call: the last recorded ones moved by this call. A pool first met in a call
 * is declared then, from zero (exact for pools met at their first position, as the sandbox's).
 */
async function supplyAfter(
  ctx: IndexContext,
  sink: DexSink,
  key: DexPoolKey,
  s: V3Storage,
  moved: Moved,
  m: GroupMatch,
  step: MatchedStep,
): Promise<DexSupply> {
  let before = await sink.supply(ctx, key);
  if (!before) {
    before = { reserves: [0n, 0n], lpSupply: 0n };
    await sink.pool(ctx, declaration(step.contract, s, undefined), before, { match: m, step });
  }
  return {
    reserves: [0, 1].map((i) => before.reserves[i] + moved.in[i] - moved.out[i]),
    lpSupply: s.liquidity,
    marginal: marginal(s),
  };
}

/** The pool's price, Y per X in raw units: `sqrt_price` is its square root in 2^80 fixed point. */
function marginal(s: V3Storage): [bigint, bigint] {
  return [1n << 160n, s.sqrt_price * s.sqrt_price];
}

const feeOf = (amountIn: bigint, s: V3Storage, token: number) => ({
  amount: (amountIn * s.constants.fee_bps) / 10000n,
  bps: String(s.constants.fee_bps),
  token,
});

function decode(call: PoolCall, step: MatchedStep, s: V3Storage, moved: Moved): DexAction | undefined {
  const { sender, router } = call.parties();
  const p = step.parameters as Record<string, unknown>;
  switch (step.entrypoint) {
    case 'x_to_y':
      return {
        kind: 'trade',
        sender,
        router,
        receiver: call.receiver(String(p.to_dy)),
        tokenIn: 0,
        tokenOut: 1,
        amountIn: moved.in[0],
        amountOut: moved.out[1],
        fees: { lp: feeOf(moved.in[0], s, 0) },
      };
    case 'y_to_x':
      return {
        kind: 'trade',
        sender,
        router,
        receiver: call.receiver(String(p.to_dx)),
        tokenIn: 1,
        tokenOut: 0,
        amountIn: moved.in[1],
        amountOut: moved.out[0],
        fees: { lp: feeOf(moved.in[1], s, 1) },
      };
    case 'set_position':
      // A new position belongs to its caller.
      return {
        kind: 'deposit',
        sender,
        router,
        receiver: sender,
        owner: step.sender ?? sender,
        amounts: moved.in,
        shares: toBig(p.liquidity),
      };
    case 'update_position': {
      const delta = toBig(p.liquidity_delta);
      const owner = positionOwner(step.bigMapDiffs, s.positions, toBig(p.position_id)) ?? step.sender ?? sender;
      const net = [0, 1].map((i) => moved.in[i] - moved.out[i]);
      if (delta > 0n) return { kind: 'deposit', sender, router, receiver: owner, owner, amounts: net, shares: delta };
      // A removal pays the freed tokens and the fees earned; a zero delta only collects the fees.
      if (delta < 0n)
        return {
          kind: 'withdraw',
          sender,
          router,
          receiver: call.receiver(String(p.to_x)),
          owner,
          amounts: moved.out,
          shares: -delta,
        };
      return { kind: 'claim', sender, router, receiver: call.receiver(String(p.to_x)), amounts: net };
    }
  }
  return undefined;
}

const toBig = (v: unknown): bigint => (typeof v === 'bigint' ? v : 0n);

/**
 * The owner of a position as the call left it, from the `positions` big map diff. Its value is read
 * without its type (the field layout differs between builds): the owner is its only address.
 */
function positionOwner(diffs: readonly BigMapDiff[], mapId: unknown, id: bigint): string | undefined {
  for (const d of diffs) {
    if (d.action !== 'update' || d.bigMapId !== mapId || plainValue({ prim: 'nat' }, d.key) !== id) continue;
    return addressIn(d.value);
  }
  return undefined;
}

function addressIn(v: unknown): string | undefined {
  if (Array.isArray(v)) return v.map(addressIn).find((a) => a !== undefined);
  if (v === null || typeof v !== 'object') return undefined;
  // An address is a string, or 22 bytes (an address with an entrypoint is longer: not an owner).
  if ('string' in v || ('bytes' in v && typeof v.bytes === 'string' && v.bytes.length === 44)) {
    const a = plainValue({ prim: 'address' }, v);
    if (typeof a === 'string' && /^(tz[1-4]|KT1)/.test(a)) return a;
  }
  return 'args' in v ? addressIn(v.args) : undefined;
}
