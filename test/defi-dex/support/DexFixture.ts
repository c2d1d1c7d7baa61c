import { b58Encode, encodeAddress, PrefixV2 } from '@taquito/utils';
import { seededRandom } from '../../../framework';
import type { DexEventRow, DexPoolRow, DexPositionRow, DexTradeRow } from '../../../plugins/defi-dex/tables.generated';

/**
 * Deterministic DEX rows for API tests: three pools (tez/TKX with an LP token, a multi-pair contract's
 * TKY/TKX pair and an idle pair without trades), their events and trades spread over the 40 days
 * before `now` (ten of them in the last 20 hours), positions open and closed, and the token registry
 * rows of TKX and the LP token. Every row carries the height of the sandbox block that writes it.
 * Tests compute their expectations from these rows, never from the API's answers.
 */
export interface DexFixture {
  readonly now: number;
  readonly pools: DexPoolRow[];
  readonly events: DexEventRow[];
  readonly trades: DexTradeRow[];
  readonly positions: DexPositionRow[];
  /** Rows of the metadata plugin's `token` table. */
  readonly tokens: Record<string, unknown>[];
  /** Height at which pools, positions and tokens are written (their final state). */
  readonly finalHeight: number;
}

const hex = (n: number, width: number): string => n.toString(16).padStart(width, '0');
export const kt1 = (n: number): string => encodeAddress(`01${hex(0xd0 + n, 40)}00`);
export const tz1 = (n: number): string => encodeAddress(`0000${hex(0xa0 + n, 40)}`);
const opHash = (n: number): string => b58Encode(hex(n + 1, 64), PrefixV2.OperationHash);

export const TKX = `${kt1(1)}_0`;
export const TKY = `${kt1(2)}_5`;
export const LP1 = `${kt1(3)}_0`;
export const MULTI = kt1(4);
export const POOL1 = `${kt1(5)}_0`;
export const POOL2 = `${MULTI}_1`;
export const POOL3 = `${MULTI}_2`;
export const WALLETS = [1, 2, 3, 4, 5].map(tz1);
export const ROUTER = kt1(6);
const DAY = 86_400_000;

/** Decimal string of a/b·10^18 truncated (a, b ≥ 0), 18 decimals. */
export function fixed18(num: bigint, den: bigint): string {
  const v = (num * 10n ** 18n) / den;
  const s = v.toString().padStart(19, '0');
  return `${s.slice(0, -18)}.${s.slice(-18)}`;
}

export function dexFixture(now: number, head: number): DexFixture {
  const rnd = seededRandom(7);
  const int = (lo: number, hi: number): number => lo + Math.floor(rnd() * (hi - lo + 1));
  const finalHeight = Math.max(2, head - 1);
  const decimals: Record<string, number> = { tez: 6, [TKX]: 8, [TKY]: 0 };
  const base = (pool: string, pairId: number, contract: string) => ({
    pool,
    contract,
    pair_id: pairId,
    entity: pool === POOL1 ? 'quipu_v1' : 'quipu_v2',
  });
  const specs = [
    { pool: POOL1, contract: kt1(5), pairId: 0, a: 'tez', b: TKX, trades: 40 },
    { pool: POOL2, contract: MULTI, pairId: 1, a: TKY, b: TKX, trades: 20 },
  ];
  const events: DexEventRow[] = [];
  const trades: DexTradeRow[] = [];
  let n = 0;
  const times: Array<{ spec: (typeof specs)[number]; k: number; time: number }> = [];
  for (const spec of specs) {
    const old = spec.trades - 10;
    for (let k = 0; k < spec.trades; k++) {
      // 30 (10) trades over days 40..2 ago, then ten in the last 20 hours; whole seconds.
      const t =
        k < old
          ? now - 40 * DAY + Math.floor((k * 38 * DAY) / old) + int(0, 3_600_000)
          : now - 20 * 3_600_000 + (k - old) * 7_000_000 + int(0, 600_000);
      times.push({ spec, k, time: Math.floor(t / 1000) * 1000 });
    }
  }
  times.sort((x, y) => x.time - y.time);
  const supply: Record<string, [bigint, bigint, bigint]> = {
    [POOL1]: [50_000_000_000n, 10_000_000_000n, 1_000_000n],
    [POOL2]: [7_000n, 3_000_000_000n, 500_000n],
  };
  const counters: Record<string, number> = {};
  for (const { spec, time } of times) {
    const height = 1 + Math.floor((n * (finalHeight - 1)) / times.length);
    const s = supply[spec.pool];
    const buy = rnd() < 0.5;
    const baseVol = BigInt(int(1, 1000)) * 10n ** BigInt(Math.max(0, decimals[spec.a] - 1));
    const quoteVol = (baseVol * s[1] * BigInt(int(90, 110))) / (s[0] * 100n) + 1n;
    if (buy) ((s[0] -= baseVol), (s[1] += quoteVol));
    else ((s[0] += baseVol), (s[1] -= quoteVol));
    const [signer, receiver] = [WALLETS[int(0, 3)], WALLETS[int(0, 4)]];
    const router = rnd() < 0.3 ? ROUTER : null;
    const sender = rnd() < 0.3 ? WALLETS[4] : signer;
    const who = {
      signer,
      sender,
      receiver,
      router,
      tx_hash: opHash(n),
      tx_fee: BigInt(int(500, 5000)),
      height,
      time: new Date(time),
    };
    const price = fixed18(quoteVol * 10n ** BigInt(decimals[spec.a]), baseVol * 10n ** BigInt(decimals[spec.b]));
    counters[spec.pool] = (counters[spec.pool] ?? 0) + 1;
    trades.push({
      ...base(spec.pool, spec.pairId, spec.contract),
      counter: counters[spec.pool],
      side: buy ? 'buy' : 'sell',
      base_token: 0,
      quote_token: 1,
      base_volume: baseVol,
      quote_volume: quoteVol,
      lp_fee: (quoteVol * 3n) / 1000n,
      lp_fee_bps: '30.00',
      lp_fee_token: buy ? 1 : 0,
      dev_fee: null,
      dev_fee_bps: null,
      dev_fee_token: null,
      referral_fee: null,
      referral_fee_bps: null,
      referral_fee_token: null,
      incentive_fee: null,
      incentive_fee_bps: null,
      incentive_fee_token: null,
      burn: spec.pool === POOL1 ? 7n : null,
      burn_bps: spec.pool === POOL1 ? '10.00' : null,
      burn_token: spec.pool === POOL1 ? 0 : null,
      price_net: price,
      price_gross: price,
      price_before: price,
      price_after: price,
      price_delta_bps: '1.25',
      price_impact_bps: '-2.50',
      is_wash_trade: rnd() < 0.2,
      price_usd: null,
      fees_usd: null,
      volume_usd: null,
      ...who,
    });
    events.push({
      ...base(spec.pool, spec.pairId, spec.contract),
      event_type: n % 7 === 3 ? 'deposit' : n % 7 === 5 ? 'withdraw' : 'trade',
      volume_a: baseVol,
      volume_b: quoteVol,
      volume_lp: n % 7 === 3 || n % 7 === 5 ? 1000n : 0n,
      supply_a: s[0],
      supply_b: s[1],
      supply_lp: s[2],
      value_usd: n % 2 ? '12.500000000000000000' : null,
      ...who,
    });
    n++;
  }
  const last = (pool: string) => trades.filter((t) => t.pool === pool).at(-1);
  const pool = (spec: { pool: string; contract: string; pairId: number }, fields: Partial<DexPoolRow>): DexPoolRow => ({
    ...base(spec.pool, spec.pairId, spec.contract),
    name: `pool ${spec.pool}`,
    pair: '',
    creator: WALLETS[0],
    num_tokens: 2,
    token_a: 'tez',
    token_b: TKX,
    token_c: null,
    token_d: null,
    token_lp: null,
    supply_a: 0n,
    supply_b: 0n,
    supply_c: null,
    supply_d: null,
    supply_lp: 0n,
    fees_bps: '30.00',
    first_height: 1,
    first_time: new Date(now - 45 * DAY),
    last_change_height: finalHeight,
    last_change_time: new Date(now - 3_600_000),
    last_trade_time: null,
    num_trades: 0,
    num_lps: 0,
    num_total_lps: 0,
    num_total_users: 0,
    update_height: finalHeight,
    ...fields,
  });
  const pools = [
    pool(specs[0], {
      pair: 'XTZ/TKX',
      token_lp: LP1,
      supply_a: supply[POOL1][0],
      supply_b: supply[POOL1][1],
      supply_lp: 1_000_000n,
      num_trades: 40,
      last_trade_time: last(POOL1)!.time,
      num_lps: 3,
      num_total_lps: 4,
      num_total_users: 5,
    }),
    pool(specs[1], {
      pair: 'TKY/TKX',
      token_a: TKY,
      supply_a: supply[POOL2][0],
      supply_b: supply[POOL2][1],
      supply_lp: 500_000n,
      num_trades: 20,
      last_trade_time: last(POOL2)!.time,
      num_lps: 1,
      num_total_lps: 1,
    }),
    pool(
      { pool: POOL3, contract: MULTI, pairId: 2 },
      { pair: 'TKY/XTZ', token_a: TKY, token_b: 'tez', supply_a: 10n, supply_b: 20n, supply_lp: 5n, first_height: 3 },
    ),
  ];
  const position = (p: string, owner: string, shares: bigint, fields: Partial<DexPositionRow>): DexPositionRow => ({
    ...base(p, p === POOL1 ? 0 : 1, p === POOL1 ? kt1(5) : MULTI),
    position: `${p}:${owner}`,
    owner,
    shares,
    shares_minted: shares + 100n,
    shares_burned: 100n,
    shares_sent: 0n,
    shares_received: 0n,
    deposited_a: 1_000_000n,
    deposited_b: 2_000_000n,
    deposited_c: null,
    deposited_d: null,
    withdrawn_a: 0n,
    withdrawn_b: 0n,
    withdrawn_c: null,
    withdrawn_d: null,
    open_value_usd: '100.000000000000000000',
    close_value_usd: null,
    growth_entry: null,
    is_closed: false,
    open_height: 2,
    open_time: new Date(now - 30 * DAY),
    close_height: null,
    close_time: null,
    update_height: finalHeight,
    ...fields,
  });
  const rootAB = isqrt(supply[POOL1][0] * supply[POOL1][1] * 10n ** 36n) / 1_000_000n; // √(A·B)/S·10^18 now
  const positions = [
    position(POOL1, WALLETS[0], 600_000n, { growth_entry: fixed18(rootAB * 95n, 100n * 10n ** 18n), open_height: 3 }),
    position(POOL1, WALLETS[1], 300_000n, {
      growth_entry: fixed18(rootAB, 10n ** 18n),
      withdrawn_a: 5n,
      withdrawn_b: 6n,
      close_value_usd: '20.000000000000000000',
      open_height: 4,
    }),
    position(POOL1, WALLETS[2], 100_000n, { open_value_usd: null, open_height: 5 }),
    position(POOL1, WALLETS[3], 0n, {
      is_closed: true,
      close_height: 6,
      close_time: new Date(now - 10 * DAY),
      withdrawn_a: 9n,
      withdrawn_b: 9n,
      close_value_usd: '90.000000000000000000',
      open_height: 5,
    }),
    position(POOL2, WALLETS[0], 500_000n, { open_height: 6 }),
  ];
  const tokens = [
    {
      contract: kt1(1),
      token_id: 0n,
      token_key: TKX,
      kind: 'fa1.2',
      decimals: 8,
      symbol: 'TKX',
      name: 'Token X',
      logo: 'ipfs://x',
      uri: null,
      info: null,
      total_supply: null,
      first_height: 1,
      first_time: new Date(now - 50 * DAY),
      update_height: finalHeight,
    },
    {
      contract: kt1(3),
      token_id: 0n,
      token_key: LP1,
      kind: 'fa1.2',
      decimals: 6,
      symbol: 'QLP',
      name: 'Quipu LP',
      logo: null,
      uri: null,
      info: null,
      total_supply: null,
      first_height: 1,
      first_time: new Date(now - 50 * DAY),
      update_height: finalHeight,
    },
  ];
  return { now, pools, events, trades, positions, tokens, finalHeight };
}

/** Integer square root by Newton's iteration (the oracle's own, independent of the API's). */
export function isqrt(n: bigint): bigint {
  if (n < 2n) return n;
  let x = n;
  let y = (x + 1n) / 2n;
  while (y < x) [x, y] = [y, (y + n / y) / 2n];
  return x;
}
