import { defiPlugin } from '../../framework/defi';
import { DEX_ADAPTERS } from './adapters';
import { DexRoutes } from './api/DexRoutes';
import type { DexSink } from './core/DexAdapter';
import { DexRecorder } from './core/DexRecorder';

const ABCD = ['a', 'b', 'c', 'd'] as const;

/** DEX pools, trades, positions, prices and candles. Its tables are declared in tables.yaml under `defi-dex`. */
export const DefiDexPlugin = defiPlugin<DexSink>('defi-dex', 'DEX pools, trades, positions, prices and candles', {
  recorder: DexRecorder,
  adapters: DEX_ADAPTERS,
  routes: (db, catalog, quotes) => (r) => new DexRoutes(db, catalog, quotes).register(r),
  // What `tzidx check defi` holds the DEX tables to: positions add up to the pools' LP supply, nothing negative.
  ledger: {
    family: 'defi',
    name: 'dex',
    holdings: {
      table: 'dex_position',
      key: 'position',
      group: 'pool',
      balance: 'shares',
      ledger: { plus: ['shares_minted', 'shares_received'], minus: ['shares_burned', 'shares_sent'] },
      closed: { flag: 'is_closed', height: 'close_height', time: 'close_time', when: ['shares'] },
      height: 'update_height',
      nonNegative: ['shares', ...ABCD.flatMap((t) => [`deposited_${t}`, `withdrawn_${t}`])],
    },
    groups: {
      table: 'dex_pool',
      key: 'pool',
      total: 'supply_lp',
      // A concentrated-liquidity pool's supply_lp is its active liquidity (the positions in range), no share total.
      totalUnless: 'marginal_a',
      height: 'update_height',
      nonNegative: [...ABCD.map((t) => `supply_${t}`), 'supply_lp'],
    },
    events: {
      table: 'dex_event',
      group: 'pool',
      height: 'height',
      op: 'tx_hash',
      nonNegative: [...ABCD.flatMap((t) => [`volume_${t}`, `supply_${t}`]), 'volume_lp', 'supply_lp'],
    },
  },
});
