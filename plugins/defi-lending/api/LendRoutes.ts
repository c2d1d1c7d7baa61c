import type { SidedArea } from '../../../framework/defi';
import { lendEventRecord, lendPoolRecord, lendPositionRecord } from './LendRecords';

/** The lending part of the TzPro API (`/v1/lend…`, `/v1/wallets/{addr}/lend_…`; defi-lending `routes:`). */
export const LEND_ROUTES: SidedArea<'debt' | 'collateral'> = {
  table: 'lend_pool',
  key: 'lend_pool',
  sides: ['debt', 'collateral'],
  noun: 'lending pool',
  pool: lendPoolRecord,
  rows: { lend_event: lendEventRecord, lend_position: lendPositionRecord },
};
