import type { HandlerRegistry } from '../../../../framework';
import type { DexAdapter, DexPoolDecl, DexSink, DexSupply } from '../../core/DexAdapter';
import { PoolCall } from '../../../../framework/defi';
import { decodeDexterCall, DEXTER_CALLS, type DexterPool } from './calls';
import { dexterMinted } from './minted';
import { DEXTER_SIGNATURE, DEXTER_V1 } from './types';
import { dexterV1Code, type DexterV1Storage as DexterStorage } from './types.gen';

/**
 * Dexter v1's code by its entrypoints: the Liquidity Baking CPMM, a Dexter fork, has neither `approve`
 * nor `updateTokenPoolInternal` (and keeps an `lqtAddress` in its storage), so it stays with `lb`.
 */
const SIGNATURE = { entrypoints: DEXTER_SIGNATURE } as const;
const FEE_BPS = 30n;

/** Its place among the adapters (framework `discoverFolders`), kept from before discovery: records keep their order. */
export const order = 5;

/**
 * Dexter v1 tez/FA1.2 pools (entity `dexter`), recognized by their entrypoints at their first call:
 * 0.3% of the input stays in the pool. Amounts come from what the call moved (tez sent with it, the
 * token transfers and tez payments the pool emitted), reserves and `lqtTotal` from the storage after
 * it. Shares live in the pool's `accounts` big map, which has `approve` but no `transfer`: shares never
 * move between owners outside liquidity calls, so the declaration has no LP token (`lp: null`).
 */
export const dexterAdapter: DexAdapter = {
  name: 'dexter',
  entities: ['dexter'],
  storageSupply: {
    types: [DEXTER_V1.types],
    read: (v) => {
      const s = dexterV1Code.storage(v);
      return s && supplyOf(s);
    },
  },
  register(r: HandlerRegistry, sink: DexSink): void {
    r.knownCode(DEXTER_V1);
    r.onOperationGroup([{ name: 'pool', destination: SIGNATURE, entrypoint: DEXTER_CALLS }], async (m, ctx) => {
      const step = m.steps.pool!;
      const s = dexterV1Code.storage(step.storage);
      const c = dexterV1Code.call(step);
      if (!step.decoded || !s || !c) return;
      const key = { contract: step.contract, pairId: 0 };
      const before = await sink.supply(ctx, key);
      if (!before) await sink.pool(ctx, declaration(step.contract, s), supplyOf(s), { match: m, step });
      const action = decodeDexterCall(new PoolCall(m, step), step, c, dexterPool(s), before);
      if (action) await sink.action(ctx, key, action, supplyOf(s), { match: m, step });
    });
  },
};

function declaration(contract: string, s: DexterStorage): DexPoolDecl {
  return {
    contract,
    pairId: 0,
    entity: 'dexter',
    tokens: [{ standard: 'fa1.2', contract: s.tokenAddress }, { standard: 'tez' }],
    lp: null,
    feesBps: String(FEE_BPS),
  };
}

const supplyOf = (s: DexterStorage): DexSupply => ({ reserves: [s.tokenPool, s.xtzPool], lpSupply: s.lqtTotal });

/** Dexter v1 as a Dexter-style pool: shares from its own mint rule (its `accounts` ledger emits nothing). */
function dexterPool(s: DexterStorage): DexterPool {
  return {
    token: { address: s.tokenAddress, id: 0n },
    supply: supplyOf(s),
    feeBps: FEE_BPS,
    minted: (_call, step, before) =>
      dexterMinted(step.amount, s.xtzPool, s.lqtTotal) ?? (before ? s.lqtTotal - before.lpSupply : 0n),
  };
}
