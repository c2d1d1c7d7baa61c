// Generated from ./types.ts by `npm run gen`: do not edit
// (test/framework/generated.test.ts checks it is current).
import { type BigMap, TypedCode } from '../../../../framework';
import { YOUVES_SAVINGS_V2 } from './types';

/** youves savings v2: the decoded storage. */
export type YouvesSavingsV2Storage = {
  administrators: BigMap<{ owner: string; token_id: bigint }, null>;
  current_balance: bigint;
  disc_factor: bigint;
  dist_factor: bigint;
  dist_factors: BigMap<string, bigint>;
  engine_address: string;
  last_balance: bigint;
  sender: string;
  stakes: BigMap<string, bigint>;
  token_address: string;
  token_id: bigint;
  total_stake: bigint;
  vesting_contract: string;
  vesting_duration_in_seconds: bigint;
};

/** youves savings v2: each entrypoint's decoded argument. */
export interface YouvesSavingsV2Parameters {
  bailout: bigint;
  default: null;
  deposit: bigint;
  execute: unknown;
  internal_bailout: bigint;
  internal_deposit: bigint;
  internal_withdraw: null;
  remove_administrator: { administrator_to_remove: string; token_id: bigint };
  set_administrator: { administrator_to_set: string; token_id: bigint };
  set_balance: Array<{ request: { owner: string; token_id: bigint }; balance: bigint }>;
  set_vesting_contract: { contract: string; duration_in_seconds: bigint };
  withdraw: null;
}

export const youvesSavingsV2Code = new TypedCode<YouvesSavingsV2Storage, YouvesSavingsV2Parameters>(
  YOUVES_SAVINGS_V2.types,
);
