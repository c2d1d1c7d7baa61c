import {
  type GroupMatch,
  type HandlerRegistry,
  type IndexContext,
  type MatchedStep,
  member,
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
import { shareTransfers } from '../../core/LpTransfers';
import { openedBy, supplyBefore } from '../../core/FirstMet';
import { PoolCall } from '../../../../framework/defi';
import { signaturePools } from '../../core/SignaturePools';
import { storageFields } from '../../core/StorageFields';
import { poolAction, type QuipuAction, shippedCall, shippedTransfer } from './shipped';
import { QUIPU_V1_TYPES } from './types';
import { quipuV1Types0Code, quipuV1Types1Code } from './types.gen';

const ROLE = 'defi-dex:quipuswap';
const CALLS = ['tezToTokenPayment', 'tokenToTezPayment', 'investLiquidity', 'divestLiquidity', 'withdrawProfit'];
/** The entrypoints that identify a QuipuSwap v1 pool by its code (bootstrap pools, starts at a later level). */
const SIGNATURE = ['tezToTokenPayment', 'tokenToTezPayment', 'investLiquidity', 'divestLiquidity'];

/** The pool's own storage: mainnet pools nest it under `storage` (next to the lambdas), the sandbox's is flat. */
interface QuipuStorage {
  tez_pool: bigint;
  token_pool: bigint;
  total_supply: bigint;
  token_address: string;
  token_id?: bigint;
}

/** Its place among the adapters (framework `discoverFolders`), kept from before discovery: records keep their order. */
export const order = 2;

/**
 * QuipuSwap v1 tez/token pools (entity `quipu_v1` for FA1.2 tokens, `quipu_token` for FA2): the token
 * is A (base) and tez B (quote); 0.3% LP fee on the input. Pools are claimed when originated (the
 * factories) by their entrypoints, or listed under `watch: defi-dex:quipuswap`. Shares live in the
 * pool's own ledger: its `transfer` calls move them between positions. Pools whose origination was not
 * indexed are recognized at their first call: by their entrypoints when their types are at hand (a node),
 * else by their storage fitting a version's shipped types (`types.ts`), which also read the parent
 * entrypoint `use` (an `or` tree of the same actions) for any pool.
 */
export const quipuswapAdapter: DexAdapter = {
  name: 'quipuswap',
  entities: ['quipu_v1', 'quipu_token'],
  storageSupply: {
    types: QUIPU_V1_TYPES,
    read: (v) => {
      const s = poolStorage(v);
      return s && supplyOf(s);
    },
  },
  register(r: HandlerRegistry, sink: DexSink): void {
    signaturePools(r, ROLE, SIGNATURE, CALLS, {
      storage: poolStorage,
      originated: (ctx, m, step, s) =>
        sink.pool(ctx, declaration(step.contract, s, m.signer), supplyOf(s), { match: m, step }),
      called: async (ctx, m, step, s, key) => {
        const c = poolAction(step);
        if (c) await called(ctx, sink, m, step, s, key, c);
      },
    });
    // Calls read with the shipped types: `use` always, the named ones when the pool's own types are not known.
    r.onOperationGroup([{ name: 'pool', entrypoint: ['use', ...CALLS] }], async (m, ctx) => {
      const step = m.steps.pool!;
      if (step.entrypoint !== 'use' && step.decoded) return;
      const shipped = shippedCall(step);
      const s = shipped && poolStorage(shipped.storage);
      if (!shipped || !s) return;
      if (!ctx.watched(step.contract).includes(ROLE)) await ctx.watch(step.contract, ROLE);
      await called(ctx, sink, m, step, s, { contract: step.contract, pairId: 0 }, shipped.call);
    });
    r.onOperationGroup([{ name: 'lp', destination: { role: ROLE }, entrypoint: 'transfer' }], async (m, ctx) => {
      const step = m.steps.lp!;
      const key = { contract: step.contract, pairId: 0 };
      if (!(await sink.knows(ctx, key))) return;
      const args = step.decoded ? step.parameters : shippedTransfer(step.op.parameters);
      for (const { from, to, shares } of shareTransfers(args)) {
        await sink.transfer(ctx, key, { kind: 'transfer', from, to, shares }, { match: m, step });
      }
    });
  },
};

async function called(
  ctx: IndexContext,
  sink: DexSink,
  m: GroupMatch,
  step: MatchedStep,
  s: QuipuStorage,
  key: DexPoolKey,
  c: QuipuAction,
): Promise<void> {
  // A pool first met at the deposit that opened it was empty before it.
  const paid = () => [new PoolCall(m, step).tokens(s.token_address, s.token_id ?? 0n, 'in'), step.amount];
  const opening = c.entrypoint === 'investLiquidity' ? openedBy(supplyOf(s), paid()) : undefined;
  const declare = () => declaration(step.contract, s, undefined);
  const before = await supplyBefore(ctx, sink, key, declare, opening ?? supplyOf(s), { match: m, step });
  const action = decode(m, step, s, before, c);
  if (action) await sink.action(ctx, key, action, supplyOf(s), { match: m, step });
}

/**
 * The pool's own record: a shipped version's (`storage`, next to the lambdas), through its generated reader; else a
 * storage of another layout naming the same fields, flat or under `storage` (the sandbox's simplified pool, other
 * builds), read field by field.
 */
function poolStorage(v: unknown): QuipuStorage | undefined {
  const fa12 = quipuV1Types0Code.storage(v)?.storage;
  if (fa12) return fa12;
  const fa2 = quipuV1Types1Code.storage(v)?.storage;
  if (fa2) return fa2;
  const record = member(v, 'storage');
  const s = typeof record === 'object' && record !== null ? record : v;
  const { int, text } = storageFields(s);
  const [tez_pool, token_pool, total_supply] = [int('tez_pool'), int('token_pool'), int('total_supply')];
  const token_address = text('token_address');
  if (tez_pool === undefined || token_pool === undefined || total_supply === undefined) return undefined;
  return token_address === undefined
    ? undefined
    : { tez_pool, token_pool, total_supply, token_address, token_id: int('token_id') };
}

function token(s: QuipuStorage): DexTokenRef {
  return typeof s.token_id === 'bigint'
    ? { standard: 'fa2', contract: s.token_address, tokenId: s.token_id }
    : { standard: 'fa1.2', contract: s.token_address };
}

function declaration(contract: string, s: QuipuStorage, creator: string | undefined): DexPoolDecl {
  const fa2 = typeof s.token_id === 'bigint';
  return {
    contract,
    pairId: 0,
    entity: fa2 ? 'quipu_token' : 'quipu_v1',
    tokens: [token(s), { standard: 'tez' }],
    lp: fa2 ? { standard: 'fa2', contract, tokenId: 0n } : { standard: 'fa1.2', contract },
    feesBps: '30',
    creator,
  };
}

const supplyOf = (s: QuipuStorage): DexSupply => ({ reserves: [s.token_pool, s.tez_pool], lpSupply: s.total_supply });
const lpFee = (amount: bigint, token: number) => ({ amount: (amount * 3n) / 1000n, bps: '30', token });

function decode(
  m: GroupMatch,
  step: MatchedStep,
  s: QuipuStorage,
  before: DexSupply,
  c: QuipuAction,
): DexAction | undefined {
  const call = new PoolCall(m, step);
  const { sender, router } = call.parties();
  const id = s.token_id ?? 0n;
  switch (c.entrypoint) {
    // A trade's receiver: the account the pool paid (as the chain moved it), followed through a router that
    // passed the output on (PoolCall.receiver, the rule of every adapter).
    case 'tezToTokenPayment': {
      const asset = { token: s.token_address, tokenId: id };
      const paid = call
        .tokenMoves()
        .find((t) => t.token === s.token_address && t.tokenId === id && t.from === step.contract);
      const amountOut = call.tokens(s.token_address, id, 'out');
      const trade = { tokenIn: 1, tokenOut: 0, amountIn: step.amount, amountOut, fees: { lp: lpFee(step.amount, 1) } };
      return { kind: 'trade', sender, receiver: call.receiver(paid?.to ?? c.args.receiver, asset), router, ...trade };
    }
    case 'tokenToTezPayment': {
      const amountIn = call.tokens(s.token_address, id, 'in');
      const paid = call.emitted.find((o) => o.type === 'transaction' && !o.entrypoint && o.volume > 0n);
      const to = paid?.receiver ?? c.args.receiver;
      const amountOut = call.tez((a) => a === to);
      const trade = { tokenIn: 0, tokenOut: 1, amountIn, amountOut, fees: { lp: lpFee(amountIn, 0) } };
      return { kind: 'trade', sender, receiver: call.receiver(to, 'tez'), router, ...trade };
    }
    case 'investLiquidity':
      return {
        kind: 'deposit',
        sender,
        receiver: sender,
        router,
        owner: sender,
        amounts: [call.tokens(s.token_address, id, 'in'), step.amount],
        shares: s.total_supply - before.lpSupply,
      };
    case 'divestLiquidity':
      return {
        kind: 'withdraw',
        sender,
        receiver: sender,
        router,
        owner: sender,
        amounts: [call.tokens(s.token_address, id, 'out'), call.tez((a) => a === sender)],
        shares: before.lpSupply - s.total_supply,
      };
    case 'withdrawProfit':
      // Baker rewards paid out to a liquidity provider: they never were part of the reserves.
      return { kind: 'claim', sender, receiver: c.args, router, amounts: [0n, call.tez(() => true)] };
  }
  return undefined;
}
