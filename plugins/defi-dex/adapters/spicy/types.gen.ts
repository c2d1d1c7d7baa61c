// Generated from ./types.ts by `npm run gen`: do not edit
// (test/framework/generated.test.ts checks it is current).
import { type BigMap, TypedValue } from '../../../../framework';
import {
  PAIR_STORAGE,
  RESERVES_ANSWER,
  ROUTER_ADD,
  ROUTER_REMOVE,
  ROUTER_SWAP_EXACT_IN,
  ROUTER_SWAP_EXACT_OUT,
  START_SWAP,
} from './types';

/** The decoded PAIR_STORAGE. */
export type PairStorage = {
  big_map_0: BigMap<string, string>;
  big_map_1: BigMap<string, string>;
  big_map_2: BigMap<string, string>;
  big_map_3: BigMap<string, string>;
  big_map_4: BigMap<string, string>;
  pending: {
    _to: string;
    amount0Out: bigint;
    amount1Out: bigint;
    balance0: bigint | null;
    balance1: bigint | null;
    step: { LL: null } | { LR: null } | { R: null };
  } | null;
  admin: string;
  big_map_5: BigMap<string, string>;
  price0_cumulative_last: bigint;
  price1_cumulative_last: bigint;
  price_ts_last: Date | string;
  reserve0: bigint;
  reserve1: bigint;
  k_last: bigint;
  token0: { fa2_address: string; token_id: bigint | null };
  token1: { fa2_address: string; token_id: bigint | null };
};

export const pairStorageType = new TypedValue<PairStorage>(PAIR_STORAGE);

/** The decoded RESERVES_ANSWER. */
export type ReservesAnswer = {
  price_ts_last: Date | string;
  reserve0: bigint;
  reserve1: bigint;
  total_liquidity: bigint;
};

export const reservesAnswerType = new TypedValue<ReservesAnswer>(RESERVES_ANSWER);

/** The decoded ROUTER_ADD. */
export type RouterAdd = {
  _to: string;
  amount0Desired: bigint;
  amount0Min: bigint;
  amount1Desired: bigint;
  amount1Min: bigint;
  deadline: Date | string;
  token0: { fa2_address: string; token_id: bigint | null };
  token1: { fa2_address: string; token_id: bigint | null };
};

export const routerAddType = new TypedValue<RouterAdd>(ROUTER_ADD);

/** The decoded ROUTER_REMOVE. */
export type RouterRemove = {
  _to: string;
  amount0Min: bigint;
  amount1Min: bigint;
  deadline: Date | string;
  liquidity: bigint;
  token0: { fa2_address: string; token_id: bigint | null };
  token1: { fa2_address: string; token_id: bigint | null };
};

export const routerRemoveType = new TypedValue<RouterRemove>(ROUTER_REMOVE);

/** The decoded ROUTER_SWAP_EXACT_IN. */
export type RouterSwapExactIn = {
  _to: string;
  amountIn: bigint;
  amountOutMin: bigint;
  deadline: Date | string;
  tokenIn: { fa2_address: string; token_id: bigint | null };
  tokenOut: { fa2_address: string; token_id: bigint | null };
};

export const routerSwapExactInType = new TypedValue<RouterSwapExactIn>(ROUTER_SWAP_EXACT_IN);

/** The decoded ROUTER_SWAP_EXACT_OUT. */
export type RouterSwapExactOut = {
  _to: string;
  amountInMax: bigint;
  amountOut: bigint;
  deadline: Date | string;
  tokenIn: { fa2_address: string; token_id: bigint | null };
  tokenOut: { fa2_address: string; token_id: bigint | null };
};

export const routerSwapExactOutType = new TypedValue<RouterSwapExactOut>(ROUTER_SWAP_EXACT_OUT);

/** The decoded START_SWAP. */
export type StartSwap = { _to: string; amount0Out: bigint; amount1Out: bigint; balance0: bigint | null };

export const startSwapType = new TypedValue<StartSwap>(START_SWAP);
