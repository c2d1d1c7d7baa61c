// Generated from ./types.ts by `npm run gen`: do not edit
// (test/framework/generated.test.ts checks it is current).
import { type BigMap, TypedCode } from '../../../../framework';
import { QUIPU_V3_POOL } from './types';

/** quipuswap v3 pool: the decoded storage. */
export type QuipuV3PoolStorage = {
  constants: {
    factory_address: string;
    fee_bps: bigint;
    tick_spacing: bigint;
    token_x: { fa12: string } | { fa2: { token_id: bigint; token_address: string } };
    token_y: { fa12: string } | { fa2: { token_id: bigint; token_address: string } };
  };
  cumulatives_buffer: {
    first: bigint;
    last: bigint;
    map: BigMap<
      bigint,
      {
        spl: { block_start_liquidity_value: bigint; sum: bigint };
        tick: { block_start_value: bigint; sum: bigint };
        time: Date | string;
      }
    >;
    reserved_length: bigint;
  };
  cur_tick_index: bigint;
  cur_tick_witness: bigint;
  dev_fee: { x: bigint; y: bigint };
  fee_growth: { x: bigint; y: bigint };
  ladder: BigMap<{ exp: bigint; positive: boolean }, { offset: bigint; v: bigint }>;
  liquidity: bigint;
  metadata: BigMap<string, string>;
  new_position_id: bigint;
  operators: BigMap<{ owner: string; operator: string; token_id: bigint }, null>;
  position_ids: BigMap<string, Array<bigint>>;
  positions: BigMap<
    bigint,
    {
      fee_growth_inside_last: { x: bigint; y: bigint };
      liquidity: bigint;
      lower_tick_index: bigint;
      owner: string;
      upper_tick_index: bigint;
    }
  >;
  sqrt_price: bigint;
  ticks: BigMap<
    bigint,
    {
      fee_growth_outside: { x: bigint; y: bigint };
      liquidity_net: bigint;
      n_positions: bigint;
      next: bigint;
      prev: bigint;
      seconds_outside: bigint;
      seconds_per_liquidity_outside: bigint;
      sqrt_price: bigint;
      tick_cumulative_outside: bigint;
    }
  >;
  token_metadata: BigMap<bigint, { token_id: bigint; token_info: Map<string, string> }>;
};

/** quipuswap v3 pool: each entrypoint's decoded argument. */
export interface QuipuV3PoolParameters {
  call_fa2:
    | { balance_of: { requests: Array<{ owner: string; token_id: bigint }>; callback: string } }
    | { transfer: Array<{ from_: string; txs: Array<{ to_: string; token_id: bigint; amount: bigint }> }> }
    | {
        update_operators: Array<
          | { add_operator: { owner: string; operator: string; token_id: bigint } }
          | { remove_operator: { owner: string; operator: string; token_id: bigint } }
        >;
      };
  balance_of: { requests: Array<{ owner: string; token_id: bigint }>; callback: string };
  transfer: Array<{ from_: string; txs: Array<{ to_: string; token_id: bigint; amount: bigint }> }>;
  update_operators: Array<
    | { add_operator: { owner: string; operator: string; token_id: bigint } }
    | { remove_operator: { owner: string; operator: string; token_id: bigint } }
  >;
  claim_dev_fee: string;
  get_position_info: { position_id: bigint; callback: string };
  increase_observation_count: bigint;
  observe: { times: Array<Date | string>; callback: string };
  set_position: {
    lower_tick_index: bigint;
    upper_tick_index: bigint;
    lower_tick_witness: bigint;
    upper_tick_witness: bigint;
    liquidity: bigint;
    deadline: Date | string;
    maximum_tokens_contributed: { x: bigint; y: bigint };
    referral_code: bigint | null;
  };
  snapshot_cumulatives_inside: { callback: string; lower_tick_index: bigint; upper_tick_index: bigint };
  update_position: {
    position_id: bigint;
    liquidity_delta: bigint;
    to_x: string;
    to_y: string;
    deadline: Date | string;
    maximum_tokens_contributed: { x: bigint; y: bigint };
    referral_code: bigint | null;
  };
  x_to_y: { dx: bigint; deadline: Date | string; min_dy: bigint; to_dy: string; referral_code: bigint | null };
  y_to_x: { dy: bigint; deadline: Date | string; min_dx: bigint; to_dx: string; referral_code: bigint | null };
  default:
    | {
        call_fa2:
          | { balance_of: { requests: Array<{ owner: string; token_id: bigint }>; callback: string } }
          | { transfer: Array<{ from_: string; txs: Array<{ to_: string; token_id: bigint; amount: bigint }> }> }
          | {
              update_operators: Array<
                | { add_operator: { owner: string; operator: string; token_id: bigint } }
                | { remove_operator: { owner: string; operator: string; token_id: bigint } }
              >;
            };
      }
    | { claim_dev_fee: string }
    | { get_position_info: { position_id: bigint; callback: string } }
    | { increase_observation_count: bigint }
    | { observe: { times: Array<Date | string>; callback: string } }
    | {
        set_position: {
          lower_tick_index: bigint;
          upper_tick_index: bigint;
          lower_tick_witness: bigint;
          upper_tick_witness: bigint;
          liquidity: bigint;
          deadline: Date | string;
          maximum_tokens_contributed: { x: bigint; y: bigint };
          referral_code: bigint | null;
        };
      }
    | { snapshot_cumulatives_inside: { callback: string; lower_tick_index: bigint; upper_tick_index: bigint } }
    | {
        update_position: {
          position_id: bigint;
          liquidity_delta: bigint;
          to_x: string;
          to_y: string;
          deadline: Date | string;
          maximum_tokens_contributed: { x: bigint; y: bigint };
          referral_code: bigint | null;
        };
      }
    | { x_to_y: { dx: bigint; deadline: Date | string; min_dy: bigint; to_dy: string; referral_code: bigint | null } }
    | { y_to_x: { dy: bigint; deadline: Date | string; min_dx: bigint; to_dx: string; referral_code: bigint | null } };
}

export const quipuV3PoolCode = new TypedCode<QuipuV3PoolStorage, QuipuV3PoolParameters>(QUIPU_V3_POOL.types);
