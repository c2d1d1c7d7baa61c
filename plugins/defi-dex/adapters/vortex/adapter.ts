import type { HandlerRegistry } from '../../../../framework';
import type { DexAdapter, DexPoolDecl, DexSink, DexSupply, DexTokenRef } from '../../core/DexAdapter';
import { LpTransfers } from '../../core/LpTransfers';
import { PoolCall } from '../../../../framework/defi';
import { decodeDexterCall, DEXTER_CALLS, type DexterPool } from '../dexter/calls';
import { VORTEX_CALLS, VORTEX_FA12, type VortexStorage } from './types';
import { vortexFa12Code } from './types.gen';

/**
 * Vortex's code by its entrypoints. Dexter v1 and the Liquidity Baking CPMM have them too: the
 * storage tells them apart (Vortex alone keeps `user_investments` next to `lqtAddress`).
 */
const SIGNATURE = { entrypoints: VORTEX_CALLS } as const;
export const VORTEX_ENTITY = 'vortex_v1';
/**
 * The fee: 0.28% of the input (the output is `in·9972·out/(in·9972 + 10000·pool)`), of which 0.03% is
 * paid to the pool's `reserve` in tez. Source: the Vortex FA1.2 factory's exchange code (`xtzToToken`,
 * `tokenToXtz`), stove-labs/arbitrage-bot integration-tests/integration-tests/vortex/contracts/contract.tz
 * at 52ad69b29dfb7558fa7691c24141c882ef665529.
 */
const FEE_BPS = 28n;
const RESERVE_BPS = 3n;

/** Its place among the adapters (framework `discoverFolders`), kept from before discovery: records keep their order. */
export const order = 7;

/**
 * Youves' Vortex tez/token pools (entity `vortex_v1`), a Dexter 2 fork with Dexter's entrypoints and
 * fields (`adapters/dexter/calls.ts` decodes both), recognized by their entrypoints and storage at
 * their first call. The token is FA1.2 or FA2 (`tokenId`); shares are an FA1.2 LP token
 * (`lqtAddress`) the pool mints and burns with `mintOrBurn`, and its `transfer`s move shares between
 * positions.
 */
export const vortexAdapter: DexAdapter = {
  name: 'vortex',
  entities: [VORTEX_ENTITY],
  storageSupply: {
    types: [VORTEX_FA12.types],
    read: (v) => {
      const s = poolStorage(v);
      return s && supplyOf(s);
    },
  },
  register(r: HandlerRegistry, sink: DexSink): void {
    const lp = new LpTransfers('vortex');
    r.knownCode(VORTEX_FA12);
    r.onOperationGroup([{ name: 'pool', destination: SIGNATURE, entrypoint: DEXTER_CALLS }], async (m, ctx) => {
      const step = m.steps.pool!;
      const s = step.decoded ? poolStorage(step.storage) : undefined;
      const c = vortexFa12Code.call(step);
      if (!s || !c) return;
      const key = { contract: step.contract, pairId: 0 };
      const before = await sink.supply(ctx, key);
      if (!before) await sink.pool(ctx, declaration(step.contract, s), supplyOf(s), { match: m, step });
      await lp.follow(ctx, s.lqtAddress, key);
      const action = decodeDexterCall(new PoolCall(m, step), step, c, vortexPool(s), before);
      if (action) await sink.action(ctx, key, action, supplyOf(s), { match: m, step });
    });
    lp.register(r, sink);
  },
};

function poolStorage(v: unknown): VortexStorage | undefined {
  const s = v as Partial<VortexStorage> | undefined;
  const ints = [s?.xtzPool, s?.tokenPool, s?.lqtTotal].every((i) => typeof i === 'bigint');
  const ok = ints && typeof s?.lqtAddress === 'string' && typeof s.tokenAddress === 'string';
  return ok && typeof s.user_investments === 'number' ? (s as VortexStorage) : undefined;
}

const token = (s: VortexStorage): DexTokenRef =>
  typeof s.tokenId === 'bigint'
    ? { standard: 'fa2', contract: s.tokenAddress, tokenId: s.tokenId }
    : { standard: 'fa1.2', contract: s.tokenAddress };

function declaration(contract: string, s: VortexStorage): DexPoolDecl {
  const lp: DexTokenRef = { standard: 'fa1.2', contract: s.lqtAddress };
  const tokens: DexTokenRef[] = [token(s), { standard: 'tez' }];
  return { contract, pairId: 0, entity: VORTEX_ENTITY, tokens, lp, feesBps: String(FEE_BPS) };
}

const supplyOf = (s: VortexStorage): DexSupply => ({ reserves: [s.tokenPool, s.xtzPool], lpSupply: s.lqtTotal });

/** Vortex as a Dexter-style pool: shares are what the pool minted through its LP token. */
function vortexPool(s: VortexStorage): DexterPool {
  const reserve = typeof s.reserve === 'string' ? { address: s.reserve, bps: RESERVE_BPS } : undefined;
  const token = { address: s.tokenAddress, id: s.tokenId ?? 0n };
  return { token, supply: supplyOf(s), feeBps: FEE_BPS, reserve, minted: (call) => call.shares(s.lqtAddress) };
}
