import { ContractTypes } from '../../../framework/michelson/ContractTypes';
import { readFixtureJson } from '../../support/fixtures';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

/**
 * The recorded Dexter v1 mainnet calls (pytezos fixtures) and an oracle for what each one moved.
 * The recordings hold the parameters, the storage after the call and its big map diff only: no tez
 * amount and no internal operations. The oracle recovers the moves from the storage after the call
 * and the parameters with Dexter v1's own rules (read in its script: `out = in·997·outPool /
 * (inPool·1000 + in·997)`; liquidity moves pro rata to `lqtTotal`, deposits rounded up), and the
 * test builds the group's internal operations from them. Where the rules leave the tez sent open
 * (addLiquidity, xtzToToken), a rule on the recorded bounds picks it (see `addAmount`, `buyAmount`).
 */
export const DEXTER_DIRS = { tzbtc: 'dexter_tzbtc_xtz', usdtz: 'dexter_usdtz_xtz' } as const;
/** The two pools share one code; the usdtz recording left its script out (SOURCES.md). */
export const dexterScript = (): Json => readFixtureJson<Json>('defi', 'pytezos', DEXTER_DIRS.tzbtc, '__script__.json');

export interface DexterState {
  xtzPool: bigint;
  tokenPool: bigint;
  lqtTotal: bigint;
  tokenAddress: string;
  accounts: number;
}

export interface RecordedCall {
  entrypoint: string;
  raw: Json;
  /** Parameters and storage after, read with the pool's own types. */
  p: Json;
  s: DexterState;
  /** Deadline, the only time a recording carries: orders the calls of one pool. */
  deadline: number;
}

export function recordedCalls(dir: string, entrypoints: readonly string[]): RecordedCall[] {
  const types = ContractTypes.fromScript(dexterScript())!;
  return entrypoints
    .map((entrypoint) => {
      const raw = readFixtureJson<Json>('defi', 'pytezos', dir, `${entrypoint}.json`);
      const p = types.parameters(entrypoint, raw.parameters.value) as Json;
      return {
        entrypoint,
        raw,
        p,
        s: types.storage(raw.storage) as DexterState,
        deadline: (p.deadline as Date).getTime(),
      };
    })
    .sort((a, b) => a.deadline - b.deadline);
}

/** What the pool moved for one call: tez in with the call, one token transfer, one tez payment. */
export interface Moves {
  amount: bigint;
  token?: { from: string; to: string; value: bigint };
  /** `storage`: the called pool's storage after a hop (`xtzToToken` into another pool). */
  tez?: { to: string; value: bigint; entrypoint?: string; parameters?: Json; storage?: Json };
  /** Shares minted or burned (lqtBurned is in the parameters; minted from the rule). */
  shares: bigint;
}

/**
 * The only v with f(v) = v near `guess`: a truncated rule seen from the state after it. Throws when not exactly one.
 */
export function onlyFixed(f: (v: bigint) => bigint, guess: bigint, what: string): bigint {
  const found = fixedPoints(f, guess);
  if (found.length !== 1) throw new Error(`${what}: ${found.length} values fit the storage after the call`);
  return found[0];
}

function fixedPoints(f: (v: bigint) => bigint, guess: bigint, window = 64n): bigint[] {
  const out: bigint[] = [];
  for (let v = guess > window ? guess - window : 0n; v <= guess + window; v++) if (f(v) === v) out.push(v);
  return out;
}

const ceilDiv = (a: bigint, b: bigint): bigint => (a + b - 1n) / b;

/** Tez bought by selling `sold` tokens: xtzPool before = after + bought, tokenPool before = after − sold. */
export function tezBought(s: DexterState, sold: bigint): bigint {
  const tokenPool = s.tokenPool - sold;
  return onlyFixed(
    (x) => (sold * 997n * (s.xtzPool + x)) / (tokenPool * 1000n + sold * 997n),
    (sold * 997n * s.xtzPool) / (tokenPool * 1000n),
    'tez bought',
  );
}

/** Tokens bought with `amount` tez (the largest when two fit); undefined when none does. */
export function tokensBought(s: DexterState, amount: bigint): bigint | undefined {
  const xtzPool = s.xtzPool - amount;
  const found = fixedPoints(
    (b) => (amount * 997n * (s.tokenPool + b)) / (xtzPool * 1000n + amount * 997n),
    (amount * 997n * s.tokenPool) / (1000n * xtzPool),
  );
  return found.length ? found[found.length - 1] : undefined;
}

/**
 * Tokens an `amount` deposit took (rounded up) and the shares it minted, before values recovered from the storage
 * after.
 */
function deposit(s: DexterState, amount: bigint): { tokens: bigint; shares: bigint } | undefined {
  const xtzPool = s.xtzPool - amount;
  const tokens = fixedPoints((t) => ceilDiv(amount * (s.tokenPool - t), xtzPool), (amount * s.tokenPool) / s.xtzPool);
  const shares = fixedPoints((m) => (amount * (s.lqtTotal - m)) / xtzPool, (amount * s.lqtTotal) / s.xtzPool);
  return tokens.length === 1 && shares.length === 1 ? { tokens: tokens[0], shares: shares[0] } : undefined;
}

/**
 * addLiquidity's tez: the largest amount whose deposit stays within maxTokensDeposited (what a
 * frontend sends: the tokens the contract will take for the tez given). Shares then follow.
 */
export function addAmount(s: DexterState, maxTokens: bigint): bigint {
  const center = (maxTokens * s.xtzPool) / s.tokenPool;
  const reach = (4n * s.xtzPool) / s.tokenPool + 256n;
  let best: bigint | undefined;
  for (let a = center - reach; a <= center + reach; a++) {
    const d = a > 0n ? deposit(s, a) : undefined;
    if (d && d.tokens <= maxTokens) best = a;
  }
  if (best === undefined) throw new Error('no tez amount fits the recorded deposit');
  return best;
}

/** xtzToToken's tez: the least amount that buys minTokensBought (the real one is not recorded). */
export function buyAmount(s: DexterState, minTokens: bigint): bigint {
  let [lo, hi] = [1n, s.xtzPool - 1n];
  while (lo < hi) {
    const mid = (lo + hi) / 2n;
    if ((tokensBought(s, mid) ?? (mid * 997n * s.tokenPool) / (1000n * (s.xtzPool - mid))) >= minTokens) hi = mid;
    else lo = mid + 1n;
  }
  return lo;
}

/** What the call moved, by the oracle. `pool` is the stand-in address of the pool, `sender` the caller. */
export function movesOf(c: RecordedCall, pool: string, sender: string): Moves {
  const { p, s } = c;
  switch (c.entrypoint) {
    case 'tokenToXtz':
      return {
        amount: 0n,
        token: { from: p.owner, to: pool, value: p.tokensSold },
        tez: { to: p.to, value: tezBought(s, p.tokensSold) },
        shares: 0n,
      };
    case 'tokenToToken': {
      const hop = {
        prim: 'Pair',
        args: [
          { string: p.to },
          {
            prim: 'Pair',
            args: [
              { int: String(p.minTokensBought) },
              { string: c.raw.parameters.value.args[1].args[1].args[1].string },
            ],
          },
        ],
      };
      return {
        amount: 0n,
        token: { from: p.owner, to: pool, value: p.tokensSold },
        tez: {
          to: p.outputDexterContract,
          value: tezBought(s, p.tokensSold),
          entrypoint: 'xtzToToken',
          parameters: hop,
        },
        shares: 0n,
      };
    }
    case 'removeLiquidity': {
      const burned = p.lqtBurned as bigint;
      const lqtBefore = s.lqtTotal + burned;
      const tez = onlyFixed(
        (x) => (burned * (s.xtzPool + x)) / lqtBefore,
        (burned * s.xtzPool) / s.lqtTotal,
        'tez withdrawn',
      );
      const tokens = onlyFixed(
        (t) => (burned * (s.tokenPool + t)) / lqtBefore,
        (burned * s.tokenPool) / s.lqtTotal,
        'tokens withdrawn',
      );
      return {
        amount: 0n,
        token: { from: pool, to: p.to, value: tokens },
        tez: { to: p.to, value: tez },
        shares: burned,
      };
    }
    case 'addLiquidity': {
      const amount = addAmount(s, p.maxTokensDeposited);
      const d = deposit(s, amount)!;
      return { amount, token: { from: sender, to: pool, value: d.tokens }, shares: d.shares };
    }
    case 'xtzToToken': {
      const amount = buyAmount(s, p.minTokensBought);
      const bought = tokensBought(s, amount);
      if (bought === undefined) throw new Error('no token amount fits the recorded purchase');
      return { amount, token: { from: pool, to: p.to, value: bought }, shares: 0n };
    }
  }
  throw new Error(`no oracle for ${c.entrypoint}`);
}

/**
 * The recorded call as an applied manager operation to `pool`, with the internal operations of `moves` (then `extra`).
 */
export function callContent(
  c: RecordedCall,
  pool: string,
  sender: string,
  moves: Moves,
  counter: number,
  extra: Json[] = [],
): Json {
  const internals: Json[] = [];
  const done = { status: 'applied', consumed_milligas: '1000' };
  if (moves.token)
    internals.push({
      ...tokenTransfer(c.s.tokenAddress, pool, moves.token.from, moves.token.to, moves.token.value),
      nonce: 0,
    });
  if (moves.tez) {
    const call = moves.tez.entrypoint
      ? { parameters: { entrypoint: moves.tez.entrypoint, value: moves.tez.parameters } }
      : {};
    const result = moves.tez.storage === undefined ? done : { ...done, storage: moves.tez.storage };
    internals.push({
      kind: 'transaction',
      source: pool,
      nonce: internals.length,
      amount: String(moves.tez.value),
      destination: moves.tez.to,
      ...call,
      result,
    });
  }
  internals.push(...extra.map((o, i) => ({ ...o, nonce: internals.length + i })));
  const result = {
    status: 'applied',
    storage: c.raw.storage,
    big_map_diff: c.raw.big_map_diff ?? [],
    consumed_milligas: '1000',
    storage_size: '1000',
  };
  return {
    kind: 'transaction',
    source: sender,
    fee: '1000',
    counter: String(counter),
    gas_limit: '100000',
    storage_limit: '1000',
    amount: String(moves.amount),
    destination: pool,
    parameters: c.raw.parameters,
    metadata: { balance_updates: [], operation_result: result, internal_operation_results: internals },
  };
}

/** An FA1.2 `transfer` the pool `from` emits (for groups built around a recorded call). */
export function tokenTransfer(token: string, source: string, from: string, to: string, value: bigint): Json {
  const v = {
    prim: 'Pair',
    args: [{ string: from }, { prim: 'Pair', args: [{ string: to }, { int: String(value) }] }],
  };
  return {
    kind: 'transaction',
    source,
    amount: '0',
    destination: token,
    parameters: { entrypoint: 'transfer', value: v },
    result: { status: 'applied', consumed_milligas: '1000' },
  };
}

/**
 * A Dexter storage with other reserves (Micheline, RPC form): `Pair accounts (Pair (Pair _ (Pair _ lqt)) (Pair (Pair _
 * _) (Pair tokenPool xtzPool)))`.
 */
export function withReserves(storage: Json, reserves: { xtzPool?: bigint; tokenPool?: bigint }): Json {
  const copy = JSON.parse(JSON.stringify(storage)) as Json;
  const pools = copy.args[1].args[1].args[1];
  if (reserves.tokenPool !== undefined) pools.args[0] = { int: String(reserves.tokenPool) };
  if (reserves.xtzPool !== undefined) pools.args[1] = { int: String(reserves.xtzPool) };
  return copy;
}
