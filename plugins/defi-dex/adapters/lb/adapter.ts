import type { GroupMatch, HandlerRegistry, MatchedStep } from '../../../../framework';
import { inputFee } from '../../core/InputFee';
import { fa12Transfer, PoolCall } from '../../core/PoolCall';
import type { DexAction, DexAdapter, DexPoolDecl, DexSink, DexSupply } from '../../core/DexAdapter';
import { LB_CALLS as CALLS, LB_CPMM, type LbCallArgs, type LbStorage } from './types';

/** Liquidity Baking's mainnet (and sandbox) contracts: the CPMM, its tzBTC token and its Sirius LQT token. */
const LB = { cpmm: 'KT1TxqZ8QtKvLu3V3JH7Gx58n7Co8pgtpQU5', sirius: 'KT1AafHA1C1vk959wvHWBispY9Y2f3fxBUUo' } as const;
const NULL_ADDRESS = 'tz1Ke2h7sDdakHJQh8WX4Z372du1KChsksyU';
const POOL = { contract: LB.cpmm, pairId: 0 } as const;

/**
 * Liquidity Baking (entity `sirius`): tzBTC (token A, the base) against tez (token B). Amounts come
 * from what the call moved (the tzBTC transfers, tez sent and burned, Sirius minted or burned by the
 * CPMM's internal operations), reserves from the storage after it; the per-block subsidy is added to
 * the tez reserve without an event; Sirius transfers move LP shares between positions.
 */
export const lbAdapter: DexAdapter = {
  name: 'lb',
  entities: ['sirius'],
  register(r: HandlerRegistry, sink: DexSink): void {
    r.knownCode(LB_CPMM);
    r.onOperationGroup([{ name: 'pool', destination: LB.cpmm, entrypoint: CALLS }], async (m, ctx) => {
      const step = m.steps.pool!;
      const storage = step.storage as LbStorage;
      if (!step.decoded || typeof storage?.tokenPool !== 'bigint') return;
      const supply: DexSupply = { reserves: [storage.tokenPool, storage.xtzPool], lpSupply: storage.lqtTotal };
      if (!(await sink.knows(ctx, POOL))) await sink.pool(ctx, declaration(storage, m.signer), supply, { match: m, step });
      const action = decode(m, step, storage);
      if (action) await sink.action(ctx, POOL, action, supply, { match: m, step });
    });
    r.onOperationGroup([{ name: 'lp', destination: LB.sirius, entrypoint: 'transfer' }], async (m, ctx) => {
      const step = m.steps.lp!;
      const p = fa12Transfer(step.op.parameters);
      if (p && (await sink.knows(ctx, POOL))) await sink.transfer(ctx, POOL, { kind: 'transfer', from: p.from, to: p.to, shares: p.value }, { match: m, step });
    });
    // The subsidy is an implicit result at the end of every block (no group); its storage is the block's final state.
    r.onOperation({ types: ['subsidy'], contracts: [LB.cpmm] }, async (op, ctx) => {
      const now = await sink.supply(ctx, POOL);
      const after = flatReserves(op.storage);
      if (now && after) await sink.adjust(ctx, POOL, { reserves: [after[0], after[1]], lpSupply: after[2] });
    });
  },
};

function declaration(s: LbStorage, creator: string | undefined): DexPoolDecl {
  return { ...POOL, entity: 'sirius', tokens: [{ standard: 'fa1.2', contract: s.tokenAddress }, { standard: 'tez' }], lp: { standard: 'fa1.2', contract: s.lqtAddress }, feesBps: '20', creator };
}

function decode(m: GroupMatch, step: MatchedStep, s: LbStorage): DexAction | undefined {
  const call = new PoolCall(m, step);
  const p = step.parameters as LbCallArgs;
  const { sender, router } = call.parties();
  const burned = call.tez((a) => a === NULL_ADDRESS);
  const sharesMoved = call.shares(s.lqtAddress);
  const tokensIn = call.tokens(s.tokenAddress, 0n, 'in');
  const tokensOut = call.tokens(s.tokenAddress, 0n, 'out');
  const lpFee = (amount: bigint, token: number) => inputFee(amount, 10n, token);
  switch (step.entrypoint) {
    case 'xtzToToken': {
      const net = step.amount - burned;
      const receiver = call.receiver(p.to, { token: s.tokenAddress, tokenId: 0n });
      return { kind: 'trade', sender, receiver, router, tokenIn: 1, tokenOut: 0, amountIn: step.amount, amountOut: tokensOut, fees: { lp: lpFee(net, 1), burn: { amount: burned, bps: '10', token: 1 } } };
    }
    case 'tokenToXtz':
    case 'tokenToToken': {
      // tokenToToken sends the tez on to another pool's xtzToToken: that pool reports its own trade.
      const to = step.entrypoint === 'tokenToXtz' ? p.to : p.outputDexterContract;
      const out = step.entrypoint === 'tokenToXtz' ? call.tez((a) => a === to) : call.tezWith(to, 'xtzToToken');
      return { kind: 'trade', sender, receiver: call.receiver(to, 'tez'), router, tokenIn: 0, tokenOut: 1, amountIn: tokensIn, amountOut: out, fees: { lp: lpFee(tokensIn, 0), burn: { amount: burned, bps: '10', token: 1 } } };
    }
    case 'addLiquidity':
      return { kind: 'deposit', sender, receiver: p.owner, router, owner: p.owner, amounts: [tokensIn, step.amount], shares: sharesMoved };
    case 'removeLiquidity':
      return { kind: 'withdraw', sender, receiver: p.to, router, owner: sender, amounts: [tokensOut, call.tez((a) => a === p.to)], shares: -sharesMoved };
  }
  return undefined;
}

/** tokenPool, xtzPool, lqtTotal of an implicit result's raw storage (a flat sequence or right-comb pairs). */
function flatReserves(storage: unknown): [bigint, bigint, bigint] | undefined {
  const ints: bigint[] = [];
  const walk = (v: unknown): void => {
    if (ints.length >= 3 || v === null || typeof v !== 'object') return;
    if (Array.isArray(v)) return v.forEach(walk);
    const node = v as { int?: string; prim?: string; args?: unknown[] };
    if (typeof node.int === 'string') ints.push(BigInt(node.int));
    else if (node.prim === 'Pair') node.args?.forEach(walk);
    else ints.push(-1n); // Not an int where a reserve is expected: not LB's storage.
  };
  walk(storage);
  return ints.length === 3 && ints.every((i) => i >= 0n) ? [ints[0], ints[1], ints[2]] : undefined;
}
