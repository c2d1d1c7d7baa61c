/**
 * Why: the sandbox's simulated Spicy pair (`sim/pair.ts`) speaks a
 * Uniswap-v2 interface of our own invention (`swap(amount0Out, amount1Out, _to)`, `reserve0`/`reserve1`/
 * `total_supply` in plain storage) that no mainnet pair has (the real one is `pair.ts`). Kept, as a
 * legacy path, only until the simulator speaks the real flow: remove it then.
 */
import type { HandlerRegistry, MatchedStep } from '../../../../framework';
import type { DexAction, DexPoolDecl, DexSink, DexSupply } from '../../core/DexAdapter';
import { inputFee } from '../../core/InputFee';
import { openedBy, supplyBefore } from '../../core/FirstMet';
import { fa2Transfers, PoolCall } from '../../../../framework/defi';
import { routerRecipient } from './router';
import { type SpicyToken, tokenRef } from './decode';

export const ROLE = 'defi-dex:spicy';
const CALLS = ['swap', 'add_liquidity', 'remove_liquidity'];
/** The simulated pair by its code: Uniswap-v2 calls plus its own FA2 ledger (the pair is its LP token). */
const SIGNATURE = { entrypoints: ['swap', 'add_liquidity', 'remove_liquidity', 'transfer'] } as const;

interface PairStorage {
  token0: SpicyToken;
  token1: SpicyToken;
  reserve0: bigint;
  reserve1: bigint;
  total_supply: bigint;
}

/** The simulated pair's Spicy-looking calls (router → pair `swap`/`add_liquidity`/`remove_liquidity`), see the top. */
export function registerLegacySimPairs(r: HandlerRegistry, sink: DexSink): void {
  r.claim(ROLE, SIGNATURE);
  r.onOperationGroup([{ name: 'pool', type: 'origination', destination: { role: ROLE } }], async (m, ctx) => {
    const step = m.steps.pool!;
    const s = pairStorage(step.storage);
    if (s) await sink.pool(ctx, declaration(step.contract, s, m.signer), supplyOf(s), { match: m, step });
  });
  r.onOperationGroup([{ name: 'pool', destination: SIGNATURE, entrypoint: CALLS }], async (m, ctx) => {
    const step = m.steps.pool!;
    const s = step.decoded ? pairStorage(step.storage) : undefined;
    if (!s) return;
    if (!ctx.watched(step.contract).includes(ROLE)) await ctx.watch(step.contract, ROLE);
    const key = { contract: step.contract, pairId: 0 };
    const call = new PoolCall(m, step);
    const declare = () => declaration(step.contract, s, undefined);
    const before = await supplyBefore(ctx, sink, key, declare, opened(call, step, s) ?? supplyOf(s), {
      match: m,
      step,
    });
    const action = decode(call, step, s, before);
    if (action) await sink.action(ctx, key, action, supplyOf(s), { match: m, step });
  });
}

/** A pair first met at the deposit that opened it was empty before it (FirstMet.openedBy). */
function opened(call: PoolCall, step: MatchedStep, s: PairStorage): DexSupply | undefined {
  const paid = [s.token0, s.token1].map((x) => call.paidIn(x.fa2_address, x.token_id ?? 0n));
  return step.entrypoint === 'add_liquidity' ? openedBy(supplyOf(s), paid) : undefined;
}

const isToken = (v: unknown): v is SpicyToken => typeof (v as SpicyToken | undefined)?.fa2_address === 'string';

function pairStorage(v: unknown): PairStorage | undefined {
  const s = v as Partial<PairStorage> | undefined;
  return isToken(s?.token0) &&
    isToken(s.token1) &&
    typeof s.reserve0 === 'bigint' &&
    typeof s.reserve1 === 'bigint' &&
    typeof s.total_supply === 'bigint'
    ? (s as PairStorage)
    : undefined;
}

function declaration(contract: string, s: PairStorage, creator: string | undefined): DexPoolDecl {
  return {
    contract,
    pairId: 0,
    entity: 'spicy_v1',
    tokens: [tokenRef(s.token0), tokenRef(s.token1)],
    lp: { standard: 'fa2', contract, tokenId: 0n },
    feesBps: '30',
    creator,
  };
}

/** The simulated pair's reserves and LP supply in its storage (`tzidx check defi`). */
export function legacySupply(v: unknown): DexSupply | undefined {
  const s = pairStorage(v);
  return s && supplyOf(s);
}

const supplyOf = (s: PairStorage): DexSupply => ({ reserves: [s.reserve0, s.reserve1], lpSupply: s.total_supply });

function decode(call: PoolCall, step: MatchedStep, s: PairStorage, before: DexSupply): DexAction | undefined {
  const { sender, router } = call.parties();
  const preceding = call.preceding();
  // The router call that led to the pair (its finalize callback): its `_to` is the user's recipient.
  const routed =
    router === undefined
      ? undefined
      : preceding
          .filter((o) => o.receiver === router && o.entrypoint)
          .map((o) => routerRecipient(o.entrypoint, o.parameters))
          .reverse()
          .find((to) => to !== undefined);
  const recipient = (to: string) => (router !== undefined && to === router ? (routed ?? sender) : to);
  const tokens = [s.token0, s.token1].map((x) => ({ address: x.fa2_address, id: x.token_id ?? 0n }));
  const paid = (i: number) => call.paidIn(tokens[i].address, tokens[i].id);
  const out = (i: number) => call.tokens(tokens[i].address, tokens[i].id, 'out');
  switch (step.entrypoint) {
    case 'swap': {
      const p = step.parameters as { amount0Out?: unknown; amount1Out?: unknown; _to?: unknown };
      const asks = (v: unknown) => typeof v === 'bigint' && v > 0n;
      // The side asked for is the output; a swap too small to pay anything is told by what was paid in.
      const tokenIn = asks(p.amount1Out) ? 0 : asks(p.amount0Out) ? 1 : paid(0) > 0n ? 0 : 1;
      const tokenOut = 1 - tokenIn;
      const amountIn = paid(tokenIn);
      return {
        kind: 'trade',
        sender,
        receiver: recipient(String(p._to)),
        router,
        tokenIn,
        tokenOut,
        amountIn,
        amountOut: out(tokenOut),
        fees: { lp: inputFee(amountIn, 30n, tokenIn) },
      };
    }
    case 'add_liquidity': {
      const owner = recipient(String(step.parameters));
      return {
        kind: 'deposit',
        sender,
        receiver: owner,
        router,
        owner,
        amounts: [paid(0), paid(1)],
        shares: s.total_supply - before.lpSupply,
      };
    }
    case 'remove_liquidity': {
      // The shares were sent to the pair just before (by the user, or by the router for them).
      const from = preceding
        .filter((o) => o.receiver === step.contract && o.entrypoint === 'transfer')
        .flatMap((o) => fa2Transfers(step.contract, o.parameters))
        .find((t) => t.to === step.contract)?.from;
      return {
        kind: 'withdraw',
        sender,
        receiver: recipient(String(step.parameters)),
        router,
        owner: from ?? sender,
        amounts: [out(0), out(1)],
        shares: before.lpSupply - s.total_supply,
      };
    }
  }
  return undefined;
}
