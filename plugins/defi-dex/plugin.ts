import * as path from 'node:path';
import { movesCheck, storageCheck, type MovesSpec, type StorageSpec } from '../../framework';
import { defiPlugin } from '../../framework/defi';
import { DexRoutes } from './api/DexRoutes';
import type { DexAdapter, DexSink } from './core/DexAdapter';
import { DexRecorder } from './core/DexRecorder';

const ABCD = ['a', 'b', 'c', 'd'] as const;

/** Its DEX protocols, one folder each (`adapters/<protocol>/adapter.ts`), found at load: no list to keep. */
export const DEX_ADAPTERS_DIR = path.join(__dirname, 'adapters');

/** `dex.reserves`: every event's and pool's reserves and LP supply = the pool contract's storage after the call. */
const dexReserves = (adapters: readonly DexAdapter[]): StorageSpec => ({
  family: 'defi',
  name: 'dex.reserves',
  groups: {
    table: 'dex_pool',
    key: 'pool',
    contract: 'contract',
    sub: 'pair_id',
    kind: 'entity',
    height: 'update_height',
    values: [...ABCD.map((t) => `supply_${t}`), 'supply_lp'],
  },
  events: {
    table: 'dex_event',
    group: 'pool',
    height: 'height',
    op: 'tx_hash',
    values: [...ABCD.map((t) => `supply_${t}`), 'supply_lp'],
    // A transfer holds the supply as of itself; a pool's creation the supply it was declared with (empty when the
    // call opened it). Other events of a group that called the pool once hold the storage after that call.
    kind: { column: 'event_type', asOfThen: ['transfer'], opening: ['create'] },
  },
  // The family's own declaration of where its storage holds them (`storageSupply` in its adapter).
  reading: (entity) => {
    const declared = adapters.find((a) => a.entities.includes(entity))?.storageSupply;
    return (
      declared && {
        types: declared.types,
        bigMap: declared.bigMap,
        read: (storage, pairId) => {
          const s = declared.read(storage, pairId);
          return s && [...ABCD.map((_, i) => (s.reserves ? (s.reserves[i] ?? null) : undefined)), s.lpSupply];
        },
      }
    );
  },
});

/** `dex.trade_moves`: trades', deposits' and withdrawals' amounts = what their operation group moved. */
const DEX_MOVES: MovesSpec = {
  family: 'defi',
  name: 'dex.trade_moves',
  groups: { table: 'dex_pool', key: 'pool', contract: 'contract', tokens: ABCD.map((t) => `token_${t}`) },
  records: [
    // buy: quote in, base out; sell: base in, quote out (the two tokens traded: `base_token`, `quote_token`).
    ...(['buy', 'sell'] as const).map((side) => ({
      table: 'dex_trade',
      group: 'pool',
      op: 'tx_hash',
      height: 'height',
      receiver: 'receiver',
      router: 'router',
      where: { side },
      legs: (side === 'buy' ? ['quote', 'base'] : ['base', 'quote']).map((leg, i) => ({
        token: { column: `${leg}_token` },
        amount: `${leg}_volume`,
        dir: i === 0 ? ('in' as const) : ('out' as const),
      })),
    })),
    ...(['deposit', 'withdraw'] as const).map((kind) => ({
      table: 'dex_event',
      group: 'pool',
      op: 'tx_hash',
      height: 'height',
      receiver: 'receiver',
      router: 'router',
      where: { event_type: kind },
      legs: ABCD.map((t, token) => ({
        token,
        amount: `volume_${t}`,
        dir: kind === 'deposit' ? ('in' as const) : ('out' as const),
      })),
    })),
  ],
  // Updates and claims move amounts no leg names (a skim, a fee claim): their groups are not checked.
  skip: { table: 'dex_event', group: 'pool', op: 'tx_hash', column: 'event_type', values: ['update', 'claim'] },
};

/** DEX pools, trades, positions, prices and candles. Its tables are declared in tables.yaml under `defi-dex`. */
export const DefiDexPlugin = defiPlugin<DexSink, DexAdapter>(
  'defi-dex',
  'DEX pools, trades, positions, prices and candles',
  {
    recorder: DexRecorder,
    adapterRoots: [DEX_ADAPTERS_DIR],
    routes: (db, catalog, quotes) => (r) => new DexRoutes(db, catalog, quotes).register(r),
    checks: [
      (reader, catalog, adapters) => storageCheck(reader, catalog, dexReserves(adapters)),
      (reader, catalog) => movesCheck(reader, catalog, DEX_MOVES),
    ],
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
  },
);
