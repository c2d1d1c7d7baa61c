import type { HandlerRegistry } from '../../../../framework';
import type { DexAdapter, DexSink, DexSupply } from '../../../../plugins/defi-dex/core/DexAdapter';

/**
 * TEST ONLY: the folder of docs/plugins.md's walkthrough ("Adding a DEX protocol = one new folder"), found by the
 * defi-dex plugin's discovery like a built-in adapter. A minimal adapter for Dexter-style tez/token pools: it declares
 * a pool at its first call and reports each call as an update, with the reserves of the storage after it. (A real
 * adapter reads the trades and liquidity from what the call moved, as adapters/dexter does.)
 */
const CALLS = ['xtzToToken', 'tokenToXtz', 'addLiquidity', 'removeLiquidity'];
const ENTITY = 'mini_dexter';

interface PoolStorage {
  readonly tokenPool: bigint;
  readonly xtzPool: bigint;
  readonly lqtTotal: bigint;
  readonly tokenAddress: string;
}

function poolStorage(v: unknown): PoolStorage | undefined {
  const s = v as Partial<PoolStorage> | undefined;
  const ints = [s?.tokenPool, s?.xtzPool, s?.lqtTotal].every((i) => typeof i === 'bigint');
  return ints && typeof s?.tokenAddress === 'string' ? (s as PoolStorage) : undefined;
}

export const miniDexter: DexAdapter = {
  name: 'mini-dexter',
  entities: [ENTITY],
  register(r: HandlerRegistry, sink: DexSink): void {
    r.onOperationGroup([{ name: 'pool', destination: { entrypoints: CALLS }, entrypoint: CALLS }], async (m, ctx) => {
      const step = m.steps.pool!;
      const s = poolStorage(step.storage);
      if (!step.decoded || !s) return;
      const key = { contract: step.contract, pairId: 0 };
      const supply: DexSupply = { reserves: [s.tokenPool, s.xtzPool], lpSupply: s.lqtTotal };
      const origin = { match: m, step };
      const before = await sink.supply(ctx, key);
      if (!before) {
        const tokens = [{ standard: 'fa1.2', contract: s.tokenAddress } as const, { standard: 'tez' } as const];
        await sink.pool(ctx, { ...key, entity: ENTITY, tokens, lp: null, feesBps: '30' }, supply, origin);
      }
      const amounts = supply.reserves.map((x, i) => x - (before ?? supply).reserves[i]);
      const caller = step.sender ?? m.signer ?? step.contract;
      await sink.action(ctx, key, { kind: 'update', sender: caller, receiver: caller, amounts }, supply, origin);
    });
  },
};
