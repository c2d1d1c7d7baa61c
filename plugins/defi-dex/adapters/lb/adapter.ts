import {
  type BigMapDiff,
  type GroupMatch,
  type HandlerRegistry,
  type IndexContext,
  isPrim,
  type MatchedStep,
  plainValue,
  sharedKey,
  type TypedCall,
} from '../../../../framework';
import { inputFee } from '../../core/InputFee';
import { fa12Transfer, PoolCall } from '../../../../framework/defi';
import type { DexAction, DexAdapter, DexPoolDecl, DexSink, DexSupply } from '../../core/DexAdapter';
import { LB_CALLS as CALLS, LB_CPMM } from './types';
import { type LbCpmmParameters, lbCpmmCode, type LbCpmmStorage as LbStorage } from './types.gen';

/** Liquidity Baking's mainnet (and sandbox) contracts: the CPMM, its tzBTC token and its Sirius LQT token. */
const LB = { cpmm: 'KT1TxqZ8QtKvLu3V3JH7Gx58n7Co8pgtpQU5', sirius: 'KT1AafHA1C1vk959wvHWBispY9Y2f3fxBUUo' } as const;
const NULL_ADDRESS = 'tz1Ke2h7sDdakHJQh8WX4Z372du1KChsksyU';
const POOL = { contract: LB.cpmm, pairId: 0 } as const;
const ADDRESS = { prim: 'address' };
const NAT = { prim: 'nat' };

/** Its place among the adapters (framework `discoverFolders`), kept from before discovery: records keep their order. */
export const order = 1;

/**
 * Liquidity Baking (entity `sirius`): tzBTC (token A, the base) against tez (token B). Amounts come
 * from what the call moved (the tzBTC transfers, tez sent and burned, Sirius minted or burned by the
 * CPMM's internal operations), reserves from the storage after it; the per-block subsidy is added to
 * the tez reserve without an event; Sirius transfers move LP shares between positions.
 */
export const lbAdapter: DexAdapter = {
  name: 'lb',
  entities: ['sirius'],
  storageSupply: {
    types: [LB_CPMM.types],
    read: (v) => {
      const s = lbCpmmCode.storage(v);
      return s && { reserves: [s.tokenPool, s.xtzPool], lpSupply: s.lqtTotal };
    },
  },
  register(r: HandlerRegistry, sink: DexSink): void {
    r.knownCode(LB_CPMM);
    r.onOperationGroup([{ name: 'pool', destination: LB.cpmm, entrypoint: CALLS }], async (m, ctx) => {
      const step = m.steps.pool!;
      const [storage, c] = [lbCpmmCode.storage(step.storage), lbCpmmCode.call(step)];
      if (!step.decoded || !storage || !c) return;
      const supply: DexSupply = { reserves: [storage.tokenPool, storage.xtzPool], lpSupply: storage.lqtTotal };
      if (!(await sink.knows(ctx, POOL)))
        await sink.pool(ctx, declaration(storage, m.signer), supply, { match: m, step });
      const action = decode(m, step, storage, c);
      if (action) await sink.action(ctx, POOL, action, supply, { match: m, step });
      ctx.shared.set(CALLED, supply);
    });
    r.onOperationGroup([{ name: 'lp', destination: LB.sirius, entrypoint: 'transfer' }], async (m, ctx) => {
      const step = m.steps.lp!;
      const p = fa12Transfer(step.op.parameters);
      if (p && (await sink.knows(ctx, POOL)))
        await sink.transfer(
          ctx,
          POOL,
          { kind: 'transfer', from: p.from, to: p.to, shares: p.value },
          { match: m, step },
        );
    });
    // The migration originated Sirius as an implicit result (no group, no storage in the result): its ledger
    // diff names the pool's first holder (the null address, with all 100 LQT), credited once the pool is known.
    r.onOperation({ types: ['migration'], contracts: [LB.sirius] }, async (op, ctx) => {
      const holders = ledgerEntries(op.bigMapDiffs);
      if (await sink.knows(ctx, POOL)) for (const h of holders) await sink.firstLiquidity(ctx, POOL, h.owner, h.shares);
      else ctx.shared.set(FIRST_HOLDERS, holders);
    });
    // The subsidy is an implicit result (no group) listed after the block's operations but applied before them on
    // mainnet: its storage is the state before the block's calls (2490368: the subsidy's storage plus the
    // xtzToToken's moves is the call's storage). The subsidy only adds tez, so a storage whose tokens or shares are
    // not the block's last call's is older than that call, and skipped (the sandbox credits it after the calls:
    // then it is the final state). The first one met declares the pool (the migration block's, when indexed).
    r.onOperation({ types: ['subsidy'], contracts: [LB.cpmm] }, async (op, ctx) => {
      const s = implicitStorage(op.storage);
      const last = ctx.shared.get(CALLED);
      if (!s || (last && (last.reserves[0] !== s.tokenPool || last.lpSupply !== s.lqtTotal))) return;
      const supply: DexSupply = { reserves: [s.tokenPool, s.xtzPool], lpSupply: s.lqtTotal };
      if (await sink.knows(ctx, POOL)) await sink.adjust(ctx, POOL, supply);
      else await declareAtSubsidy(ctx, sink, s, supply);
    });
  },
};

/** The supply after the block's last reported call of the CPMM (its storage holds the block's subsidy). */
const CALLED = sharedKey<DexSupply>('defi-dex.lb.called');

/** Sirius's holders at its origination, when it came before the pool was declared in the same block. */
const FIRST_HOLDERS = sharedKey<Array<{ owner: string; shares: bigint }>>('defi-dex.lb.first-holders');

/** Declares the pool at a subsidy, then credits the first holders Sirius's origination named earlier in the block. */
async function declareAtSubsidy(ctx: IndexContext, sink: DexSink, s: LbStorage, supply: DexSupply): Promise<void> {
  await sink.pool(ctx, declaration(s, undefined), supply);
  for (const h of ctx.shared.get(FIRST_HOLDERS) ?? []) await sink.firstLiquidity(ctx, POOL, h.owner, h.shares);
  ctx.shared.set(FIRST_HOLDERS, []);
}

function declaration(s: LbStorage, creator: string | undefined): DexPoolDecl {
  return {
    ...POOL,
    entity: 'sirius',
    tokens: [{ standard: 'fa1.2', contract: s.tokenAddress }, { standard: 'tez' }],
    lp: { standard: 'fa1.2', contract: s.lqtAddress },
    feesBps: '20',
    creator,
  };
}

function decode(m: GroupMatch, step: MatchedStep, s: LbStorage, c: TypedCall<LbCpmmParameters>): DexAction | undefined {
  const call = new PoolCall(m, step);
  const { sender, router } = call.parties();
  const burned = call.tez((a) => a === NULL_ADDRESS);
  const sharesMoved = call.shares(s.lqtAddress);
  const tokensIn = call.tokens(s.tokenAddress, 0n, 'in');
  const tokensOut = call.tokens(s.tokenAddress, 0n, 'out');
  const lpFee = (amount: bigint, token: number) => inputFee(amount, 10n, token);
  switch (c.entrypoint) {
    case 'xtzToToken': {
      const net = step.amount - burned;
      const receiver = call.receiver(c.args.to, { token: s.tokenAddress, tokenId: 0n });
      return {
        kind: 'trade',
        sender,
        receiver,
        router,
        tokenIn: 1,
        tokenOut: 0,
        amountIn: step.amount,
        amountOut: tokensOut,
        fees: { lp: lpFee(net, 1), burn: { amount: burned, bps: '10', token: 1 } },
      };
    }
    case 'tokenToXtz':
    case 'tokenToToken': {
      // tokenToToken sends the tez on to another pool's xtzToToken: that pool reports its own trade.
      const to = c.entrypoint === 'tokenToXtz' ? c.args.to : c.args.outputDexterContract;
      const out = c.entrypoint === 'tokenToXtz' ? call.tez((a) => a === to) : call.tezWith(to, 'xtzToToken');
      return {
        kind: 'trade',
        sender,
        receiver: call.receiver(to, 'tez'),
        router,
        tokenIn: 0,
        tokenOut: 1,
        amountIn: tokensIn,
        amountOut: out,
        fees: { lp: lpFee(tokensIn, 0), burn: { amount: burned, bps: '10', token: 1 } },
      };
    }
    case 'addLiquidity':
      return {
        kind: 'deposit',
        sender,
        receiver: c.args.owner,
        router,
        owner: c.args.owner,
        amounts: [tokensIn, step.amount],
        shares: sharesMoved,
      };
    case 'removeLiquidity':
      return {
        kind: 'withdraw',
        sender,
        receiver: c.args.to,
        router,
        owner: sender,
        amounts: [tokensOut, call.tez((a) => a === c.args.to)],
        shares: -sharesMoved,
      };
  }
  return undefined;
}

/** The leaves of an implicit result's raw storage (a flat sequence or right-comb pairs), in order. */
function leaves(storage: unknown): unknown[] {
  const out: unknown[] = [];
  const walk = (v: unknown): void => {
    if (Array.isArray(v)) return v.forEach(walk);
    if (isPrim(v) && v.prim === 'Pair') v.args?.forEach(walk);
    else out.push(v);
  };
  walk(storage);
  return out;
}

/** The CPMM's raw storage in an implicit result: the reserves, then the token and LQT addresses. */
function implicitStorage(storage: unknown): LbStorage | undefined {
  const values = leaves(storage).map((v, i) => plainValue(i < 3 ? NAT : ADDRESS, v));
  const [tokenPool, xtzPool, lqtTotal] = values.slice(0, 3);
  const [tokenAddress, lqtAddress] = values.slice(3, 5);
  if (typeof tokenPool !== 'bigint' || typeof xtzPool !== 'bigint' || typeof lqtTotal !== 'bigint') return undefined;
  if (typeof tokenAddress !== 'string' || typeof lqtAddress !== 'string') return undefined;
  return { tokenPool, xtzPool, lqtTotal, tokenAddress, lqtAddress };
}

/** The holders an LQT origination's diff writes into its ledger: the big map it allocates as address → nat. */
function ledgerEntries(diffs: readonly BigMapDiff[]): Array<{ owner: string; shares: bigint }> {
  const isLedger = (d: BigMapDiff) =>
    d.action === 'alloc' &&
    isPrim(d.keyType) &&
    d.keyType.prim === 'address' &&
    isPrim(d.valueType) &&
    d.valueType.prim === 'nat';
  const ledger = diffs.find(isLedger)?.bigMapId;
  return diffs.flatMap((d) => {
    if (d.action !== 'update' || ledger === undefined || d.bigMapId !== ledger) return [];
    const [owner, shares] = [plainValue(ADDRESS, d.key), plainValue(NAT, d.value)];
    return typeof owner === 'string' && typeof shares === 'bigint' ? [{ owner, shares }] : [];
  });
}
