import type { HandlerRegistry, TypedCall } from '../../../../framework';
import type { DexAction, DexAdapter, DexPoolDecl, DexSink, DexSupply, DexTokenRef } from '../../core/DexAdapter';
import { LpTransfers } from '../../core/LpTransfers';
import { storageFields } from '../../core/StorageFields';
import { PoolCall } from '../../../../framework/defi';
import { divisorBps, plentyToken } from './common';
import { PLENTY_CALLS, PLENTY_VOLATILE, PLENTY_VOLATILE_SYSTEM_FEE } from './types';
import { type PlentyVolatileParameters, plentyVolatileCode, type PlentyVolatileStorage } from './types.gen';

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
      const [s, c] = [poolStorage(step.storage), plentyVolatileCode.call(step)];
      if (!s || !c) return;
      const key = { contract: step.contract, pairId: 0 };
      let before = await sink.supply(ctx, key);
      if (!before) {
        before = supplyOf(s);
        await sink.pool(ctx, declaration(step.contract, s), before, { match: m, step });
      }
      if (s.lpTokenAddress) await lpTransfers.follow(ctx, s.lpTokenAddress, key);
      const action = decode(new PoolCall(m, step), c, s, before);
      if (action) await sink.action(ctx, key, action, supplyOf(s), { match: m, step });
    });
    lpTransfers.register(r, sink);
  },
};

/** What the adapter reads of a pool's storage: the shipped version's fields, the last six only in that version. */
type PlentyStorage = Pick<
  PlentyVolatileStorage,
  'token1Address' | 'token2Address' | 'token1_pool' | 'token2_pool' | 'totalSupply'
> &
  Partial<
    Pick<PlentyVolatileStorage, 'token1Id' | 'token2Id' | 'token1Check' | 'token2Check' | 'lpFee' | 'lpTokenAddress'>
  >;

/**
 * A pool's storage: the shipped version's, through its generated reader; else a storage of another layout that
 * names the reserves, supply and token addresses by the same fields (the sandbox's simplified pool, which has no
 * real script behind it), read field by field.
 */
function poolStorage(v: unknown): PlentyStorage | undefined {
  const shipped = plentyVolatileCode.storage(v);
  if (shipped) return shipped;
  const { text, int, flag } = storageFields(v);
  const [token1Address, token2Address] = [text('token1Address'), text('token2Address')];
  const [token1_pool, token2_pool, totalSupply] = [int('token1_pool'), int('token2_pool'), int('totalSupply')];
  if (token1Address === undefined || token2Address === undefined) return undefined;
  if (token1_pool === undefined || token2_pool === undefined || totalSupply === undefined) return undefined;
  return {
    ...{ token1Address, token2Address, token1_pool, token2_pool, totalSupply },
    ...{ token1Id: int('token1Id'), token2Id: int('token2Id'), token1Check: flag('token1Check') },
    ...{ token2Check: flag('token2Check'), lpFee: int('lpFee'), lpTokenAddress: text('lpTokenAddress') },
  };
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

function decode(
  call: PoolCall,
  c: TypedCall<PlentyVolatileParameters>,
  s: PlentyStorage,
  before: DexSupply,
): DexAction | undefined {
  const { sender, router } = call.parties();
  const [a, b] = [
    { address: s.token1Address, id: s.token1Check ? (s.token1Id ?? 0n) : 0n },
    { address: s.token2Address, id: s.token2Check ? (s.token2Id ?? 0n) : 0n },
  ];
  const moved = (i: number, dir: 'in' | 'out') => call.tokens([a, b][i].address, [a, b][i].id, dir);
  // Shares the pool minted or burned through its LP token (right also for a pool first met in this call);
  // the supply's change where the storage names no LP token.
  const minted = s.lpTokenAddress ? call.shares(s.lpTokenAddress) : s.totalSupply - before.lpSupply;
  switch (c.entrypoint) {
    case 'Swap': {
      const p = c.args;
      const tokenOut = p.requiredTokenAddress === s.token1Address && p.requiredTokenId === a.id ? 0 : 1;
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
        receiver: c.args.recipient,
        router,
        owner: c.args.recipient,
        amounts: [moved(0, 'in'), moved(1, 'in')],
        shares: minted,
      };
    case 'RemoveLiquidity': {
      const amounts = [moved(0, 'out'), moved(1, 'out')];
      return { kind: 'withdraw', sender, receiver: c.args.recipient, router, owner: sender, amounts, shares: -minted };
    }
  }
  return undefined;
}
