import type { SidedArea } from '../../../framework/defi';
import { farmEventRecord, farmPositionRecord, farmRecord } from './FarmRecords';

/** The farm part of the TzPro API (`/v1/farm…`, `/v1/wallets/{addr}/farm_…`; defi-farm `routes:` in tables.yaml). */
export const FARM_ROUTES: SidedArea<'stake' | 'reward'> = {
  table: 'farm_pool',
  key: 'farm',
  sides: ['stake', 'reward'],
  noun: 'farm',
  blank: { total_stake: '0' },
  pool: farmRecord,
  rows: { farm_event: farmEventRecord, farm_position: farmPositionRecord },
};
