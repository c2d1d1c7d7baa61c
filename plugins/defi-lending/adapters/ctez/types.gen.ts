// Generated from ./types.ts by `npm run gen`: do not edit
// (test/framework/generated.test.ts checks it is current).
import { type BigMap, TypedCode, TypedValue } from '../../../../framework';
import { CTEZ_1, CTEZ_2, OVEN_1, OVEN_2, OVEN_HANDLE } from './types';

/** ctez 1: the decoded storage. */
export type Ctez1Storage = {
  cfmm_address: string;
  ctez_fa12_address: string;
  drift: bigint;
  last_drift_update: Date | string;
  ovens: BigMap<{ id: bigint; owner: string }, { address: string; ctez_outstanding: bigint; tez_balance: bigint }>;
  target: bigint;
};

/** ctez 1: each entrypoint's decoded argument. */
export interface Ctez1Parameters {
  cfmm_price: { '0': bigint; '1': bigint };
  create: { id: bigint; delegate: string | null; depositors: { any: null } | { whitelist: Array<string> } };
  get_target: string;
  liquidate: { handle: { id: bigint; owner: string }; quantity: bigint; to: string };
  mint_or_burn: { id: bigint; quantity: bigint };
  register_deposit: { handle: { id: bigint; owner: string }; amount: bigint };
  set_addresses: { cfmm_address: string; ctez_fa12_address: string };
  withdraw: { id: bigint; amount: bigint; to: string };
  default:
    | { cfmm_price: { '0': bigint; '1': bigint } }
    | { create: { id: bigint; delegate: string | null; depositors: { any: null } | { whitelist: Array<string> } } }
    | { get_target: string }
    | { liquidate: { handle: { id: bigint; owner: string }; quantity: bigint; to: string } }
    | { mint_or_burn: { id: bigint; quantity: bigint } }
    | { register_deposit: { handle: { id: bigint; owner: string }; amount: bigint } }
    | { set_addresses: { cfmm_address: string; ctez_fa12_address: string } }
    | { withdraw: { id: bigint; amount: bigint; to: string } };
}

export const ctez1Code = new TypedCode<Ctez1Storage, Ctez1Parameters>(CTEZ_1.types);

/** ctez 2: the decoded storage. */
export type Ctez2Storage = {
  ovens: BigMap<
    { id: bigint; owner: string },
    { tez_balance: bigint; ctez_outstanding: bigint; address: string; fee_index: bigint }
  >;
  last_update: Date | string;
  sell_ctez: {
    liquidity_owners: BigMap<string, { liquidity_shares: bigint; proceeds_owed: bigint; subsidy_owed: bigint }>;
    total_liquidity_shares: bigint;
    self_reserves: bigint;
    proceeds_debts: bigint;
    proceeds_reserves: bigint;
    subsidy_debts: bigint;
    subsidy_reserves: bigint;
    fee_index: bigint;
  };
  sell_tez: {
    liquidity_owners: BigMap<string, { liquidity_shares: bigint; proceeds_owed: bigint; subsidy_owed: bigint }>;
    total_liquidity_shares: bigint;
    self_reserves: bigint;
    proceeds_debts: bigint;
    proceeds_reserves: bigint;
    subsidy_debts: bigint;
    subsidy_reserves: bigint;
    fee_index: bigint;
  };
  context: { target: bigint; drift: bigint; _Q: bigint; ctez_fa12_address: string };
  last_event_id: bigint;
  metadata: BigMap<string, string>;
  originator: string;
};

/** ctez 2: each entrypoint's decoded argument. */
export interface Ctez2Parameters {
  ctez_to_tez: { to: string; ctez_sold: bigint; min_tez_bought: bigint; deadline: Date | string };
  tez_to_ctez: { to: string; min_ctez_bought: bigint; deadline: Date | string };
  collect_from_ctez_liquidity: string;
  collect_from_tez_liquidity: string;
  remove_ctez_liquidity: {
    to: string;
    liquidity_redeemed: bigint;
    min_self_received: bigint;
    min_proceeds_received: bigint;
    min_subsidy_received: bigint;
    deadline: Date | string;
  };
  remove_tez_liquidity: {
    to: string;
    liquidity_redeemed: bigint;
    min_self_received: bigint;
    min_proceeds_received: bigint;
    min_subsidy_received: bigint;
    deadline: Date | string;
  };
  add_ctez_liquidity: { owner: string; amount_deposited: bigint; min_liquidity: bigint; deadline: Date | string };
  add_tez_liquidity: { owner: string; min_liquidity: bigint; deadline: Date | string };
  mint_or_burn: { id: bigint; quantity: bigint };
  liquidate_oven: { handle: { id: bigint; owner: string }; quantity: bigint; to: string };
  register_oven_deposit: { handle: { id: bigint; owner: string }; amount: bigint };
  withdraw_from_oven: { id: bigint; amount: bigint; to: string };
  create_oven: { id: bigint; delegate: string | null; depositors: { any: null } | { whitelist: Array<string> } };
  set_ctez_fa12_address: string;
  default:
    | { ctez_to_tez: { to: string; ctez_sold: bigint; min_tez_bought: bigint; deadline: Date | string } }
    | { tez_to_ctez: { to: string; min_ctez_bought: bigint; deadline: Date | string } }
    | { collect_from_ctez_liquidity: string }
    | { collect_from_tez_liquidity: string }
    | {
        remove_ctez_liquidity: {
          to: string;
          liquidity_redeemed: bigint;
          min_self_received: bigint;
          min_proceeds_received: bigint;
          min_subsidy_received: bigint;
          deadline: Date | string;
        };
      }
    | {
        remove_tez_liquidity: {
          to: string;
          liquidity_redeemed: bigint;
          min_self_received: bigint;
          min_proceeds_received: bigint;
          min_subsidy_received: bigint;
          deadline: Date | string;
        };
      }
    | {
        add_ctez_liquidity: { owner: string; amount_deposited: bigint; min_liquidity: bigint; deadline: Date | string };
      }
    | { add_tez_liquidity: { owner: string; min_liquidity: bigint; deadline: Date | string } }
    | { mint_or_burn: { id: bigint; quantity: bigint } }
    | { liquidate_oven: { handle: { id: bigint; owner: string }; quantity: bigint; to: string } }
    | { register_oven_deposit: { handle: { id: bigint; owner: string }; amount: bigint } }
    | { withdraw_from_oven: { id: bigint; amount: bigint; to: string } }
    | { create_oven: { id: bigint; delegate: string | null; depositors: { any: null } | { whitelist: Array<string> } } }
    | { set_ctez_fa12_address: string };
}

export const ctez2Code = new TypedCode<Ctez2Storage, Ctez2Parameters>(CTEZ_2.types);

/** The decoded OVEN_1. */
export type Oven1 = { address: string; ctez_outstanding: bigint; tez_balance: bigint };

export const oven1Type = new TypedValue<Oven1>(OVEN_1);

/** The decoded OVEN_2. */
export type Oven2 = { tez_balance: bigint; ctez_outstanding: bigint; address: string; fee_index: bigint };

export const oven2Type = new TypedValue<Oven2>(OVEN_2);

/** The decoded OVEN_HANDLE. */
export type OvenHandle = { id: bigint; owner: string };

export const ovenHandleType = new TypedValue<OvenHandle>(OVEN_HANDLE);
