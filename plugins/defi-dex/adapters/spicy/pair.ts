/**
 * Why: the real mainnet SpicySwap pair (types in `types.ts`). A swap is `start_swap` (the pair pays the
 * output at once), then the pair asks both tokens' FA2 `balance_of`, and its `finalize_action` (a call
 * to itself) checks the balances and writes the new reserves. The router pays the input into the pair
 * just before `start_swap`, after asking `get_reserves` (whose answer carries the LP supply).
 * A pair is recognized at its `finalize_action` by its storage, with no node and no origination seen.
 */
import type { GroupMatch, HandlerRegistry, MatchedStep, NormalizedOperation } from '../../../../framework';
import type { DexPoolDecl, DexSink, DexSupply, DexTradeAction } from '../../core/DexAdapter';
import { inputFee } from '../../core/InputFee';
import { PoolCall } from '../../../../framework/defi';
import { answeredLiquidity, pairStorage, type PairStorage, startSwap, tokenRef } from './decode';
import { PAIR_ENTRYPOINTS } from './types';

export function registerPairs(r: HandlerRegistry, sink: DexSink, role: string): void {
  r.claim(role, { entrypoints: PAIR_ENTRYPOINTS });
  r.onOperationGroup([{ name: 'fin', entrypoint: 'finalize_action' }], async (m, ctx) => {
    const fin = m.steps.fin!;
    // The pair calls its own `finalize_action`; its storage must read as a pair's, with no swap pending.
    const after = fin.op.sender === fin.contract ? pairStorage(fin.op.storage) : undefined;
    if (!after || after.pending !== null) return;
    const start = openingCall(m, fin);
    const before = start && pairStorage(start.storage);
    const asked = start && startSwap(start.parameters);
    if (!start || !before || !asked) return; // a liquidity call's finalize: not decoded yet (docs)
    if (!ctx.watched(fin.contract).includes(role)) await ctx.watch(fin.contract, role);
    const key = { contract: fin.contract, pairId: 0 };
    const known = await sink.supply(ctx, key);
    const lpSupply = answered(m, start) ?? known?.lpSupply ?? 0n;
    const origin = { match: m, step: fin };
    if (!known) await sink.pool(ctx, declaration(fin.contract, after), supplyOf(before, lpSupply), origin);
    const call = new PoolCall(m, { op: start, contract: fin.contract, sender: start.sender });
    const action = trade(call, after, asked.out);
    if (action) await sink.action(ctx, key, action, supplyOf(after, lpSupply), origin);
  });
}

/** The `start_swap` a `finalize_action` closes: the pair's last call before it, callbacks and transfers aside. */
function openingCall(m: GroupMatch, fin: MatchedStep): NormalizedOperation | undefined {
  const opening = callsBefore(m, fin.op)
    .filter((o) => o.receiver === fin.contract && o.entrypoint !== 'balance_callback' && o.entrypoint !== 'transfer')
    .at(-1);
  return opening?.entrypoint === 'start_swap' ? opening : undefined;
}

/** The calls (with an entrypoint) of `op`'s content before it. */
const callsBefore = (m: GroupMatch, op: NormalizedOperation) =>
  m.group.filter((o) => o.opC === op.opC && o.opI < op.opI && o.entrypoint);

/** The LP supply the pair gave in its `get_reserves` answer just before the swap (router swaps ask it). */
function answered(m: GroupMatch, start: NormalizedOperation): bigint | undefined {
  const answer = callsBefore(m, start)
    .filter((o) => o.sender === start.receiver && o.entrypoint === 'reserves_callback')
    .at(-1);
  return answer && answeredLiquidity(answer.parameters);
}

function declaration(contract: string, s: PairStorage): DexPoolDecl {
  const tokens = [tokenRef(s.token0), tokenRef(s.token1)];
  const lp = { standard: 'fa2', contract, tokenId: 0n } as const;
  return { contract, pairId: 0, entity: 'spicy_v1', tokens, lp, feesBps: '30' };
}

const supplyOf = (s: PairStorage, lpSupply: bigint): DexSupply => ({ reserves: [s.reserve0, s.reserve1], lpSupply });

/**
 * The trade from what moved: the input is what was transferred to the pair just before `start_swap`,
 * the output what the pair transferred out in it, to the receiver. The fee: `in·997/1000` is credited
 * (derived from the recording, where the output is exactly that curve's; no source seen).
 */
function trade(call: PoolCall, s: PairStorage, out: [bigint, bigint]): DexTradeAction | undefined {
  const tokens = [s.token0, s.token1].map((x) => ({ address: x.fa2_address, id: x.token_id ?? 0n }));
  const tokenOut = out[1] > 0n ? 1 : out[0] > 0n ? 0 : undefined;
  if (tokenOut === undefined) return undefined;
  const tokenIn = 1 - tokenOut;
  const [tin, tout] = [tokens[tokenIn], tokens[tokenOut]];
  const amountIn = call.paidIn(tin.address, tin.id);
  const pair = call.step.contract;
  const moves = call.tokenMoves().filter((x) => x.token === tout.address && x.tokenId === tout.id && x.from === pair);
  const amountOut = moves.reduce((n, x) => n + x.amount, 0n);
  const { sender, router } = call.parties();
  const receiver = moves[0]?.to ?? sender;
  const fees = { lp: inputFee(amountIn, 30n, tokenIn) };
  return { kind: 'trade', sender, receiver, router, tokenIn, tokenOut, amountIn, amountOut, fees };
}
