import * as path from 'node:path';
import { defiPlugin, sidedRoutes } from '../../framework/defi';
import { LEND_ROUTES } from './api/LendRoutes';
import type { LendingSink } from './core/LendingAdapter';
import { LendingRecorder } from './core/LendingRecorder';

/** Its protocols, one folder each (`adapters/<protocol>/adapter.ts`), found at load: no list to keep. */
export const LENDING_ADAPTERS_DIR = path.join(__dirname, 'adapters');

/** Lending pools, their events and positions. Its tables are declared in tables.yaml under `defi-lending`. */
export const DefiLendingPlugin = defiPlugin<LendingSink>('defi-lending', 'Lending pools, their events and positions', {
  recorder: LendingRecorder,
  adapterRoots: [LENDING_ADAPTERS_DIR],
  routes: sidedRoutes(LEND_ROUTES),
  // What `tzidx check defi` holds the lending tables to: nothing negative, closed positions closed. Balances
  // accrue interest between changes, so neither the positions' counters nor the market totals add up exactly:
  // those two checks are not declared here (docs/defi-lending.md).
  ledger: {
    family: 'defi',
    name: 'lend',
    holdings: {
      table: 'lend_position',
      key: 'position',
      group: 'pool',
      balance: 'balance',
      ledger: null,
      closed: { flag: 'is_closed', height: 'close_height', time: 'close_time', when: ['balance', 'debt'] },
      height: 'update_height',
      nonNegative: [
        'balance',
        'debt',
        'deposited',
        'withdrawn',
        'borrowed',
        'repaid',
        'liquidated',
        'sent',
        'received',
      ],
    },
    groups: {
      table: 'lend_pool',
      key: 'pool',
      total: null,
      height: 'update_height',
      nonNegative: ['total_collateral', 'total_debt'],
    },
    events: {
      table: 'lend_event',
      group: 'pool',
      height: 'height',
      op: 'tx_hash',
      nonNegative: ['volume', 'debt', 'collateral', 'fee'],
    },
  },
});
