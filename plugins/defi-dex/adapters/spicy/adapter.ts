/**
 * Why: SpicySwap (entity `spicy_v1`), a Uniswap-v2 clone on Tezos: a router (also the factory) and
 * one FA2 pair contract per pool, which is its own LP token (token id 0). The real mainnet pair is
 * decoded by `pair.ts` with the types of `types.ts`; `legacy.ts` reads the sandbox's older simulated
 * pair until the simulator speaks the real flow. The pair's own FA2 `transfer`s move LP shares.
 */
import type { HandlerRegistry } from '../../../../framework';
import type { DexAdapter, DexSink } from '../../core/DexAdapter';
import { fa2Transfers } from '../../../../framework/defi';
import { legacySupply, registerLegacySimPairs, ROLE } from './legacy';
import { registerPairs } from './pair';
import { PAIR_STORAGE } from './types';
import { pairStorageType } from './types.gen';

/** Its place among the adapters (framework `discoverFolders`), kept from before discovery: records keep their order. */
export const order = 9;

export const spicyAdapter: DexAdapter = {
  name: 'spicy',
  entities: ['spicy_v1'],
  // `tzidx check defi`: a real pair's storage holds its reserves, not its LP supply (the sandbox's pair has both).
  storageSupply: {
    types: [{ storageType: PAIR_STORAGE }],
    read: (v) => {
      const s = pairStorageType.read(v);
      return s ? { reserves: [s.reserve0, s.reserve1] } : legacySupply(v);
    },
  },
  register(r: HandlerRegistry, sink: DexSink): void {
    registerPairs(r, sink, ROLE);
    registerLegacySimPairs(r, sink);
    r.onOperationGroup([{ name: 'lp', destination: { role: ROLE }, entrypoint: 'transfer' }], async (m, ctx) => {
      const step = m.steps.lp!;
      const key = { contract: step.contract, pairId: 0 };
      if (!(await sink.knows(ctx, key))) return;
      // Shares sent to the pair itself are burned by its next `remove_liquidity` (the sender's, reported there).
      for (const t of fa2Transfers(step.contract, step.op.parameters)) {
        if (t.tokenId !== 0n || t.from === key.contract || t.to === key.contract) continue;
        const moved = { kind: 'transfer', from: t.from, to: t.to, shares: t.amount } as const;
        await sink.transfer(ctx, key, moved, { match: m, step });
      }
    });
  },
};
