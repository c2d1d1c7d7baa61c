import type { HandlerRegistry, MatchedStep } from '../../../../framework';
import type { DexAction, DexAdapter, DexPoolDecl, DexSink, DexSupply, DexTokenRef } from '../../core/DexAdapter';
import { LpTransfers } from '../../core/LpTransfers';
import { PoolCall } from '../../../../framework/defi';
import { divisorBps, plentyToken } from './common';
import {
  PLENTY_CALLS,
  PLENTY_VOLATILE,
  PLENTY_VOLATILE_SYSTEM_FEE,
  type PlentyCallArgs,
  type PlentyStorage,
} from './types';

const SIGNATURE = { entrypoints: PLENTY_CALLS } as const;
/** Plenty's usual volatile-pool fee divisor (0.345%), for storages that do not carry `lpFee`. */
const DEFAULT_LP_FEE = 290n;

/** Its place among the adapters (framework `discoverFolders`), kept from before discovery: records keep their order. */
export const order = 3;

/**
 * Plenty volatile AMM pools (entity `plenty_v1`): token1 is A, token2 is B; the fee is
 * amountIn/lpFee of the input (fees_bps = 10000/lpFee). `Swap` names the token wanted (the output).
 * Pools are recognized by their entrypoints at their first call; transfers of their LP token
 * (`lpTokenAddress`) move shares between positions.
 */
export const plentyAdapter: DexAdapter = {
  name: 'plenty',
  entities: ['plenty_v1'],
  storageSupply: {
    types: [PLENTY_VOLATILE.types, PLENTY_VOLATILE_SYSTEM_FEE.types],
    read: (v) => {
      const s = poolStorage(v);
      return s && supplyOf(s);
    },
  },
  register(r: HandlerRegistry, sink: DexSink): void {
    const lpTransfers = new LpTransfers('plenty');
    r.knownCode(PLENTY_VOLATILE);
    r.knownCode(PLENTY_VOLATILE_SYSTEM_FEE);
    r.onOperationGroup([{ name: 'pool', destination: SIGNATURE, entrypoint: PLENTY_CALLS }], async (m, ctx) => {
      const step = m.steps.pool!;
      const s = poolStorage(step.storage);
      if (!s) return;
      const key = { contract: step.contract, pairId: 0 };
      let before = await sink.supply(ctx, key);
      if (!before) {
        before = supplyOf(s);
        await sink.pool(ctx, declaration(step.contract, s), before, { match: m, step });
      }
      if (s.lpTokenAddress) await lpTransfers.follow(ctx, s.lpTokenAddress, key);
      const action = decode(new PoolCall(m, step), step, s, before);
      if (action) await sink.action(ctx, key, action, supplyOf(s), { match: m, step });
    });
    lpTransfers.register(r, sink);
  },
};

function poolStorage(v: unknown): PlentyStorage | undefined {
  const s = v as Partial<PlentyStorage> | undefined;
  return typeof s?.token1_pool === 'bigint' &&
    typeof s.token2_pool === 'bigint' &&
    typeof s.totalSupply === 'bigint' &&
    typeof s.token1Address === 'string' &&
    typeof s.token2Address === 'string'
    ? (s as PlentyStorage)
    : undefined;
}

const tokens = (s: PlentyStorage): [DexTokenRef, DexTokenRef] => [
  plentyToken(s.token1Address, s.token1Id, s.token1Check),
  plentyToken(s.token2Address, s.token2Id, s.token2Check),
];
const feeDivisor = (s: PlentyStorage): bigint => (s.lpFee && s.lpFee > 0n ? s.lpFee : DEFAULT_LP_FEE);
const feesBps = (s: PlentyStorage): string => divisorBps(feeDivisor(s));

function declaration(contract: string, s: PlentyStorage): DexPoolDecl {
  return {
    contract,
    pairId: 0,
    entity: 'plenty_v1',
    tokens: tokens(s),
    lp: s.lpTokenAddress ? { standard: 'fa1.2', contract: s.lpTokenAddress } : null,
    feesBps: feesBps(s),
  };
}

const supplyOf = (s: PlentyStorage): DexSupply => ({
  reserves: [s.token1_pool, s.token2_pool],
  lpSupply: s.totalSupply,
  feesBps: feesBps(s),
});

function decode(call: PoolCall, step: MatchedStep, s: PlentyStorage, before: DexSupply): DexAction | undefined {
  const { sender, router } = call.parties();
  const p = step.parameters as PlentyCallArgs;
  const [a, b] = [
    { address: s.token1Address, id: s.token1Check ? (s.token1Id ?? 0n) : 0n },
    { address: s.token2Address, id: s.token2Check ? (s.token2Id ?? 0n) : 0n },
  ];
  const moved = (i: number, dir: 'in' | 'out') => call.tokens([a, b][i].address, [a, b][i].id, dir);
  // Shares the pool minted or burned through its LP token (right also for a pool first met in this call);
  // the supply's change where the storage names no LP token.
  const minted = s.lpTokenAddress ? call.shares(s.lpTokenAddress) : s.totalSupply - before.lpSupply;
  switch (step.entrypoint) {
    case 'Swap': {
      const tokenOut =
        p.requiredTokenAddress === s.token1Address && (p.requiredTokenId === undefined || p.requiredTokenId === a.id)
          ? 0
          : 1;
      const tokenIn = 1 - tokenOut;
      const amountIn = moved(tokenIn, 'in');
      const out = [a, b][tokenOut];
      const receiver = call.receiver(p.recipient, { token: out.address, tokenId: out.id });
      return {
        kind: 'trade',
        sender,
        receiver,
        router,
        tokenIn,
        tokenOut,
        amountIn,
        amountOut: moved(tokenOut, 'out'),
        fees: { lp: { amount: amountIn / feeDivisor(s), bps: feesBps(s), token: tokenIn } },
      };
    }
    case 'AddLiquidity':
      return {
        kind: 'deposit',
        sender,
        receiver: p.recipient,
        router,
        owner: p.recipient,
        amounts: [moved(0, 'in'), moved(1, 'in')],
        shares: minted,
      };
    case 'RemoveLiquidity': {
      const amounts = [moved(0, 'out'), moved(1, 'out')];
      return { kind: 'withdraw', sender, receiver: p.recipient, router, owner: sender, amounts, shares: -minted };
    }
  }
  return undefined;
}
