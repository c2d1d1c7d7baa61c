import type { HandlerRegistry, IndexContext, MatchedStep, TypedCall } from '../../../../framework';
import { scriptExpr } from '../../../../framework/michelson/ScriptExpr';
import type { DexAction, DexAdapter, DexPoolKey, DexSink, DexSupply, DexTokenRef } from '../../core/DexAdapter';
import { PoolCall } from '../../../../framework/defi';
import { shareTransfers } from '../../core/LpTransfers';
import { swapFees } from './fees';
import { declaration, dexMaps, natKey, poolTokens, stablePool, supplyOf, updatedValue, type StablePool } from './pool';
import { QUIPU_STABLE_DEX4FACTORY, STABLE_SIGNATURE } from './types';
import { type QuipuStableDex4factoryParameters, quipuStableDex4factoryCode } from './types.gen';

const ROLE = 'defi-dex:quipuswap-stable';
/** The calls that change a pool's reserves, supply or fees. */
const CALLS = ['swap', 'invest', 'divest', 'divest_imbalanced', 'divest_one_coin', 'set_fees'] as const;
/** The dex's own entrypoints (the standalone dex and the factory's dex4factory alike). */
const SIGNATURE = { entrypoints: STABLE_SIGNATURE } as const;

/** A call of one of CALLS, as the shipped types decode it (`types.gen.ts`). */
type Call = Extract<TypedCall<QuipuStableDex4factoryParameters>, { entrypoint: (typeof CALLS)[number] }>;
const isCall = (c: TypedCall<QuipuStableDex4factoryParameters> | undefined): c is Call =>
  c !== undefined && (CALLS as readonly string[]).includes(c.entrypoint);

/** Its place among the adapters (framework `discoverFolders`), kept from before discovery: records keep their order. */
export const order = 11;

/**
 * QuipuSwap StableSwap (entity `quipu_stable`): Curve-style multi-pool dex contracts of 2 to 4 tokens
 * per pool (pool `KT1…_poolId`), most of them deployed by the factory (`add_pool` originates one, a
 * contract is recognized by its entrypoints). Each call's pool is read from the `pools[pool_id]`
 * update of its big-map diff; a pool's tokens (`tokens[pool_id]`, fixed at creation) from the
 * origination's diff or, for pools first met in a call, from the node. Shares are the contract's own
 * FA2 ledger (token id = pool id): its `transfer`s move them between positions.
 */
export const quipuswapStableAdapter: DexAdapter = {
  name: 'quipuswap-stable',
  entities: ['quipu_stable'],
  // `tzidx check defi`: a pool's reserves and LP supply are its entry of the `pools` big map.
  storageSupply: {
    types: [QUIPU_STABLE_DEX4FACTORY.types],
    bigMap: { path: ['storage', 'pools'], key: { prim: 'nat' } },
    read: (v) => {
      const p = stablePool(v);
      return p && supplyOf(p);
    },
  },
  register(r: HandlerRegistry, sink: DexSink): void {
    // A pool's tokens never change once set: remembered per process, looked up again after a restart.
    const tokens = new Map<string, DexTokenRef[]>();
    r.knownCode(QUIPU_STABLE_DEX4FACTORY);
    r.claim(ROLE, SIGNATURE);
    r.onOperationGroup([{ name: 'dex', type: 'origination', destination: { role: ROLE } }], async (m, ctx) => {
      const step = m.steps.dex!;
      const maps = dexMaps(step.storage);
      if (!maps) return;
      for (const d of step.bigMapDiffs) {
        if (d.action !== 'update' || d.bigMapId !== maps.pools) continue;
        const pairId = natKey(d.key);
        if (pairId === undefined) continue;
        const pool = stablePool(d.value);
        const list = poolTokens(updatedValue(step.bigMapDiffs, maps.tokens, pairId));
        if (!pool || !list) continue;
        tokens.set(`${step.contract}_${pairId}`, list);
        await sink.pool(ctx, declaration(step.contract, Number(pairId), list, pool, m.signer), supplyOf(pool), {
          match: m,
          step,
        });
      }
    });
    r.onOperationGroup([{ name: 'dex', destination: SIGNATURE, entrypoint: CALLS }], async (m, ctx) => {
      const step = m.steps.dex!;
      const maps = step.decoded ? dexMaps(step.storage) : undefined;
      const c = quipuStableDex4factoryCode.call(step);
      if (!maps || !isCall(c)) return;
      const p = c.args;
      if (!ctx.watched(step.contract).includes(ROLE)) await ctx.watch(step.contract, ROLE);
      const pool = stablePool(updatedValue(step.bigMapDiffs, maps.pools, p.pool_id));
      if (!pool) return;
      const key = { contract: step.contract, pairId: Number(p.pool_id) };
      const list =
        tokens.get(`${key.contract}_${key.pairId}`) ?? (await lookUpTokens(ctx, maps.tokens, p.pool_id, step));
      if (!list || list.length !== pool.reserves.length) return;
      tokens.set(`${key.contract}_${key.pairId}`, list);
      const call = new PoolCall(m, step);
      const moves = movesOf(call, list);
      let before = await sink.supply(ctx, key);
      if (!before) {
        // First met in a call: an invest that brought everything the pool holds opened it (reserves
        // before were zero); otherwise its reserves before are unknown and it is declared as it is after.
        const opened =
          step.entrypoint === 'invest' && pool.totalSupply > 0n && pool.reserves.every((r, i) => r === moves(i, 'in'));
        before = opened ? { reserves: list.map(() => 0n), lpSupply: 0n } : undefined;
        await sink.pool(ctx, declaration(key.contract, key.pairId, list, pool), before ?? supplyOf(pool), {
          match: m,
          step,
        });
        if (!before) return;
      }
      const action = decode(call, step, c, moves, pool, before);
      if (action) await sink.action(ctx, key, action, supplyOf(pool), { match: m, step });
    });
    r.onOperationGroup([{ name: 'lp', destination: { role: ROLE }, entrypoint: 'transfer' }], async (m, ctx) => {
      const step = m.steps.lp!;
      for (const { tokenId, ...t } of shareTransfers(step.parameters)) {
        const key: DexPoolKey = { contract: step.contract, pairId: Number(tokenId) };
        if (await sink.knows(ctx, key)) await sink.transfer(ctx, key, { kind: 'transfer', ...t }, { match: m, step });
      }
    });
  },
};

/** `tokens[pool_id]` from this operation's diff, else from the node at this block. */
async function lookUpTokens(
  ctx: IndexContext,
  id: number,
  poolId: bigint,
  step: MatchedStep,
): Promise<DexTokenRef[] | undefined> {
  const inDiff = updatedValue(step.bigMapDiffs, id, poolId);
  if (inDiff !== undefined) return poolTokens(inDiff);
  const raw = await ctx.node(`context/big_maps/${id}/${scriptExpr({ int: String(poolId) }, { prim: 'nat' })}`);
  return raw === undefined ? undefined : poolTokens(raw);
}

type Moves = (i: number, dir: 'in' | 'out') => bigint;

/** What moved of the pool's token `i` into or out of the dex in this call (FA1.2 moves carry token id 0). */
function movesOf(call: PoolCall, tokens: readonly DexTokenRef[]): Moves {
  return (i, dir) => {
    const tk = tokens[i];
    return tk.standard === 'tez' ? 0n : call.tokens(tk.contract, tk.standard === 'fa2' ? tk.tokenId : 0n, dir);
  };
}

function decode(
  call: PoolCall,
  step: MatchedStep,
  c: Call,
  moved: Moves,
  pool: StablePool,
  before: DexSupply,
): DexAction | undefined {
  const { sender, router } = call.parties();
  const n = pool.reserves.length;
  const all = (dir: 'in' | 'out') => pool.reserves.map((_, i) => moved(i, dir));
  // The ledger entry a divest burns is the immediate caller's; outputs go to `receiver` (default: the caller).
  const caller = step.sender ?? sender;
  const receiver = ('receiver' in c.args ? c.args.receiver : null) ?? caller;
  switch (c.entrypoint) {
    case 'swap': {
      const [i, j] = [Number(c.args.idx_from), Number(c.args.idx_to)];
      if (!(i >= 0 && i < n && j >= 0 && j < n && i !== j)) return undefined;
      const amountOut = moved(j, 'out');
      const fees = swapFees(amountOut, before.reserves[j], pool.reserves[j], pool, j);
      return {
        kind: 'trade',
        sender,
        receiver: call.receiver(receiver),
        router,
        tokenIn: i,
        tokenOut: j,
        amountIn: moved(i, 'in'),
        amountOut,
        fees,
      };
    }
    case 'invest':
      return {
        kind: 'deposit',
        sender,
        receiver,
        router,
        owner: receiver,
        amounts: all('in'),
        shares: pool.totalSupply - before.lpSupply,
      };
    case 'divest':
    case 'divest_imbalanced':
    case 'divest_one_coin':
      return {
        kind: 'withdraw',
        sender,
        receiver: call.receiver(receiver),
        router,
        owner: caller,
        amounts: all('out'),
        shares: before.lpSupply - pool.totalSupply,
      };
    case 'set_fees':
      return { kind: 'update', sender, receiver: sender, router, amounts: pool.reserves.map(() => 0n) };
  }
  return undefined;
}
