import {
  carriedKey,
  scriptExpr,
  type TypedValue,
  type GroupMatch,
  type HandlerRegistry,
  type IndexContext,
  type MatchedStep,
} from '../../../../framework';
import type { DexAction, DexAdapter, DexFee, DexPoolDecl, DexPoolKey, DexSink, DexSupply } from '../../core/DexAdapter';
import { shareTransfers } from '../../core/LpTransfers';
import { PoolCall } from '../../../../framework/defi';
import { coreStorage, type DexCoreStorage, NAT, rateBps, type Token, tokenRef, written } from './storage';
import { QUIPU_V2_DEXCORE, QUIPU_V2_SIGNATURE } from './types';
import {
  type PairT,
  pairTType,
  type QuipuV2DexcoreParameters,
  quipuV2DexcoreCode,
  type TokensT,
  tokensTType,
} from './types.gen';

const ROLE = 'defi-dex:quipuswap-v2';
const CALLS = ['launch_exchange', 'invest_liquidity', 'divest_liquidity', 'swap', 'withdraw_profit'];
/**
 * DexCore by its code: the DEX entrypoints plus the bucket callback (QuipuSwap's stable and v3 contracts have neither).
 */
const SIGNATURE = { entrypoints: QUIPU_V2_SIGNATURE };
const PRECISION = 10n ** 18n;

/** Its place among the adapters (framework `discoverFolders`), kept from before discovery: records keep their order. */
export const order = 10;

/**
 * QuipuSwap v2 "DexCore" (entity `quipu_v2`, mainnet KT1J8Hr3BP8bpbfmgGpRPoC9nAMSYtStZG43): one contract,
 * many pairs (`KT1…_pairId`, ids given by `launch_exchange`), each token Tez | FA1.2 | FA2 (tez is always
 * token B, held by the pair's "bucket" contract). The contract is also the pairs' FA2 LP token (token
 * id = pair id). Reserves and LP supply are the `pairs` big map entries the call wrote; amounts are what
 * moved (token transfers, tez sent, the bucket's payouts). A `swap` is a route of hops inside the
 * contract: one trade per hop. Fees (1e18 precision, storage `fees`): `swap_fee` stays in the reserves
 * (lp), `interface_fee` accrues to the referrer (referral), `auction_fee` to the QUIPU burn auction (burn).
 */
export const quipuswapV2Adapter: DexAdapter = {
  name: 'quipuswap-v2',
  entities: ['quipu_v2'],
  // `tzidx check defi`: a pair's reserves and LP supply are its entry of the `pairs` big map.
  storageSupply: {
    types: [QUIPU_V2_DEXCORE.types],
    bigMap: { path: ['storage', 'pairs'], key: NAT },
    read: (v) => {
      const p = pairTType.decode(v);
      return p && { reserves: [p.token_a_pool, p.token_b_pool], lpSupply: p.total_supply };
    },
  },
  register(r: HandlerRegistry, sink: DexSink): void {
    r.claim(ROLE, SIGNATURE);
    r.knownCode(QUIPU_V2_DEXCORE);
    r.onOperationGroup([{ name: 'pool', destination: SIGNATURE, entrypoint: CALLS }], async (m, ctx) => {
      const step = m.steps.pool!;
      const s = coreStorage(step.storage);
      const c = quipuV2DexcoreCode.call(step);
      if (!s || !c) return;
      if (!ctx.watched(step.contract).includes(ROLE)) await ctx.watch(step.contract, ROLE);
      const pairs = written(step.bigMapDiffs, s.pairs, pairTType);
      const tokens = written(step.bigMapDiffs, s.tokens, tokensTType);
      const call = new PoolCall(m, step);
      const at = async (pairId: bigint): Promise<Pool | undefined> =>
        pool(ctx, sink, m, step, s, pairId, pairs.get(pairId), tokens.get(pairId));
      const { sender, router } = call.parties();
      switch (c.entrypoint) {
        case 'launch_exchange':
        case 'invest_liquidity': {
          const launch = c.entrypoint === 'launch_exchange';
          const id = c.entrypoint === 'launch_exchange' ? [...pairs.keys()][0] : c.args.pair_id;
          const x = id === undefined ? undefined : await at(id);
          if (!x) return;
          const b =
            'tez' in x.tokens.token_b
              ? launch
                ? step.amount
                : call.tezWith(x.after.bucket ?? '', 'fill')
              : moved(call, x.tokens.token_b, 'in');
          const shares =
            c.entrypoint === 'launch_exchange' ? x.after.total_supply - (x.before?.lpSupply ?? 0n) : c.args.shares;
          const owner = c.args.shares_receiver;
          return act(
            ctx,
            sink,
            x,
            {
              kind: 'deposit',
              sender,
              receiver: owner,
              router,
              owner,
              amounts: [moved(call, x.tokens.token_a, 'in'), b],
              shares,
            },
            m,
            step,
          );
        }
        case 'divest_liquidity': {
          const x = await at(c.args.pair_id);
          if (!x) return;
          const receiver = c.args.liquidity_receiver;
          const b =
            'tez' in x.tokens.token_b
              ? bucketPaid(call, x.after.bucket, receiver)
              : moved(call, x.tokens.token_b, 'out');
          // The shares are burned from the direct caller (Tezos.sender), whoever the group's signer is.
          return act(
            ctx,
            sink,
            x,
            {
              kind: 'withdraw',
              sender,
              receiver,
              router,
              owner: step.sender ?? sender,
              amounts: [moved(call, x.tokens.token_a, 'out'), b],
              shares: c.args.shares,
            },
            m,
            step,
          );
        }
        case 'withdraw_profit': {
          // Baker rewards of a tez pair's bucket paid out to a liquidity provider: never in the reserves.
          const id = c.args.pair_id;
          const key = { contract: step.contract, pairId: Number(id) };
          const before = await sink.supply(ctx, key);
          if (!before) return;
          const bucket = pairs.get(id)?.bucket ?? (await bigMapEntry(ctx, s.pairs, id, pairTType))?.bucket ?? null;
          const receiver = c.args.receiver.split('%')[0];
          await sink.action(
            ctx,
            key,
            { kind: 'claim', sender, receiver, router, amounts: [0n, bucketPaid(call, bucket, receiver)] },
            before,
            { match: m, step },
          );
          return;
        }
        case 'swap':
          return swap(ctx, sink, m, step, s, c.args, at, call);
      }
    });
    r.onOperationGroup([{ name: 'lp', destination: { role: ROLE }, entrypoint: 'transfer' }], async (m, ctx) => {
      const step = m.steps.lp!;
      for (const { tokenId, ...t } of shareTransfers(step.parameters)) {
        const key = { contract: step.contract, pairId: Number(tokenId) };
        if (await sink.knows(ctx, key)) await sink.transfer(ctx, key, { kind: 'transfer', ...t }, { match: m, step });
      }
    });
  },
};

/** A pair as one call sees it: its tokens, the recorded supply before the call and the entry after it. */
interface Pool {
  key: DexPoolKey;
  tokens: TokensT;
  before: DexSupply | undefined;
  after: PairT;
  supply: DexSupply;
}

/**
 * The pair `pairId` of this call, declared when first met: the tokens come from the call's own `tokens`
 * entry (a launch) or, for a pair whose launch was not indexed, from the node (once per pair).
 */
async function pool(
  ctx: IndexContext,
  sink: DexSink,
  m: GroupMatch,
  step: MatchedStep,
  s: DexCoreStorage,
  pairId: bigint,
  after: PairT | undefined,
  launched: TokensT | undefined,
): Promise<Pool | undefined> {
  if (!after) return undefined;
  const key = { contract: step.contract, pairId: Number(pairId) };
  const supply: DexSupply = { reserves: [after.token_a_pool, after.token_b_pool], lpSupply: after.total_supply };
  const name = `${step.contract}_${pairId}`;
  const known = ctx.state.get(PAIR_TOKENS);
  const tokens = launched ?? known.get(name) ?? (await pairTokens(ctx, s, pairId));
  if (!tokens) return undefined;
  known.set(name, tokens);
  let before = await sink.supply(ctx, key);
  if (!before) {
    const decl: DexPoolDecl = {
      ...key,
      entity: 'quipu_v2',
      tokens: [tokenRef(tokens.token_a), tokenRef(tokens.token_b)],
      lp: { standard: 'fa2', contract: step.contract, tokenId: pairId },
      feesBps: rateBps(s.fees.interface_fee + s.fees.swap_fee + s.fees.auction_fee),
      creator: launched ? m.signer : undefined,
    };
    // A launch is the pair's creation (empty before it); a pair first met later starts with the storage after the call.
    await sink.pool(ctx, decl, launched ? { reserves: [0n, 0n], lpSupply: 0n } : supply, { match: m, step });
    before = await sink.supply(ctx, key);
  }
  return { key, tokens, before, after, supply };
}

/**
 * A pair's tokens never change once its id is given: kept by the indexer (carried from batch to batch, not shared
 * by other indexers in the process), asked from the node when missing.
 */
const PAIR_TOKENS = carriedKey('defi-dex.quipu-v2-pair-tokens', () => new Map<string, TokensT>());

async function pairTokens(ctx: IndexContext, s: DexCoreStorage, pairId: bigint): Promise<TokensT | undefined> {
  return bigMapEntry(ctx, s.tokens, pairId, tokensTType);
}

async function bigMapEntry<T>(ctx: IndexContext, bigMap: number, pairId: bigint, type: TypedValue<T>) {
  const raw = await ctx.node(`context/big_maps/${bigMap}/${scriptExpr({ int: String(pairId) }, NAT)}`);
  return raw === undefined || raw === null
    ? undefined
    : written([{ action: 'update', bigMapId: bigMap, key: { int: String(pairId) }, value: raw }], bigMap, type).get(
        pairId,
      );
}

async function act(
  ctx: IndexContext,
  sink: DexSink,
  x: Pool,
  action: DexAction,
  m: GroupMatch,
  step: MatchedStep,
): Promise<void> {
  await sink.action(ctx, x.key, action, x.supply, { match: m, step });
}

/** Tez a tez pair's bucket paid `to` on the pool's order (the bucket, not DexCore, holds the pair's tez). */
const bucketPaid = (call: PoolCall, bucket: string | null, to: string): bigint =>
  bucket ? call.tezPaidBy(bucket, to) : 0n;

/** What the pool moved of a token (FA1.2 or FA2; tez is handled by the callers). */
function moved(call: PoolCall, token: Token, direction: 'in' | 'out'): bigint {
  if ('fa12' in token) return call.tokens(token.fa12, 0n, direction);
  if ('fa2' in token) return call.tokens(token.fa2.token, token.fa2.id, direction);
  return 0n;
}

/**
 * A swap route: one trade per hop. The first hop's input is what the user paid (tez sent or the token
 * transfer in), the last hop's output what the receiver got (a token transfer or the bucket's payout);
 * the amounts in between never leave the contract, so they are the reserve moves of the hop's pair
 * (the out reserve's drop), each hop's output being the next one's input.
 */
async function swap(
  ctx: IndexContext,
  sink: DexSink,
  m: GroupMatch,
  step: MatchedStep,
  s: DexCoreStorage,
  p: QuipuV2DexcoreParameters['swap'],
  at: (id: bigint) => Promise<Pool | undefined>,
  call: PoolCall,
): Promise<void> {
  const route = p.swaps.map((h) => ({ pairId: h.pair_id, aToB: 'a_to_b' in h.direction }));
  if (route.length === 0 || p.lambda !== null) return; // flash swaps (a lambda) are not decoded
  const pools: Pool[] = [];
  for (const h of route) {
    const x = await at(h.pairId);
    if (!x) return;
    pools.push(x);
  }
  const { sender, router } = call.parties();
  const receiver = call.receiver(p.receiver);
  const { interface_fee: fi, swap_fee: fs, auction_fee: fa } = s.fees;
  let amountIn = 0n;
  for (let i = 0; i < route.length; i++) {
    const x = pools[i];
    const [tokenIn, tokenOut] = route[i].aToB ? [0, 1] : [1, 0];
    const tin = tokenIn === 0 ? x.tokens.token_a : x.tokens.token_b;
    const tout = tokenOut === 0 ? x.tokens.token_a : x.tokens.token_b;
    if (i === 0) amountIn = 'tez' in tin ? step.amount : moved(call, tin, 'in');
    const last = i === route.length - 1;
    const before = x.before?.reserves ?? x.supply.reserves;
    let amountOut: bigint;
    if (last) amountOut = 'tez' in tout ? bucketPaid(call, x.after.bucket, p.receiver) : moved(call, tout, 'out');
    else amountOut = before[tokenOut] - x.supply.reserves[tokenOut];
    // The contract's own split of the input: what joins the reserve, the referrer's and the auction's parts.
    const kept = (amountIn * (PRECISION - fi - fa)) / PRECISION;
    const referral = (amountIn * fi) / PRECISION;
    const fee = (amount: bigint, rate: bigint): DexFee => ({ amount, bps: rateBps(rate), token: tokenIn });
    const fees = {
      lp: fee((amountIn * fs) / PRECISION, fs),
      referral: fee(referral, fi),
      burn: fee(amountIn - kept - referral, fa),
    };
    await act(
      ctx,
      sink,
      x,
      {
        kind: 'trade',
        sender,
        receiver: last ? receiver : step.contract,
        router,
        tokenIn,
        tokenOut,
        amountIn,
        amountOut,
        fees,
      },
      m,
      step,
    );
    amountIn = amountOut;
  }
}
