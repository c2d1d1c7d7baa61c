import { member, type BigMapDiff } from '../../../../framework';
import { PRECISION } from '../../Interest';
import type { LendingAccount, LendingRates, LendingSupply, LendingTokenRef } from '../../core/LendingAdapter';
import { accountType, keyType, natType, tokenType } from './types.gen';

/** The fields of one Yupana market (`tokens[tokenId]`) the adapter reads. */
export interface MarketInfo {
  mainToken?: unknown;
  totalBorrowsF?: bigint;
  totalLiquidF?: bigint;
  totalSupplyF?: bigint;
  totalReservesF?: bigint;
  borrowIndex?: bigint;
  lastPrice?: bigint;
  liquidReserveRateF?: bigint;
}

/** The argument of a Yupana call as the adapter reads it (field names of yupana-protocol-core's parameter records). */
export interface YupanaCall {
  tokenId?: bigint;
  borrowToken?: bigint;
  collateralToken?: bigint;
  borrower?: string;
  amount?: bigint;
}

/** A call's argument by field name (no Yupana parameter type is shipped); `updateInterest`'s nat is its tokenId. */
export function yupanaCall(v: unknown): YupanaCall {
  const nat = (k: string) => natType.read(member(v, k));
  const borrower = member(v, 'borrower');
  return {
    tokenId: natType.read(v) ?? nat('tokenId'),
    borrowToken: nat('borrowToken'),
    collateralToken: nat('collateralToken'),
    borrower: typeof borrower === 'string' ? borrower : undefined,
    amount: nat('amount'),
  };
}

/** A Yupana storage: `ledger` and `accounts` big maps and the `tokens` map (a big map id in later versions). */
export interface YupanaStorage {
  ledger: number;
  accounts: number;
  tokens?: Map<bigint, MarketInfo> | number;
  /** Liquidators' bonus ×10^18 (1.05e18: 5% more collateral than the debt repaid). */
  liqIncentiveF?: bigint;
}

/**
 * The storage when it is a Yupana one (the real contract nests it under `storage`; the hangzhou-era contract and the
 * sandbox model keep `tokens` as a map, read by field name); else undefined.
 */
export function yupanaStorage(v: unknown): YupanaStorage | undefined {
  const inner = member(v, 'storage');
  const s = inner === undefined ? v : inner;
  const [ledger, accounts, tokens, liqIncentiveF] = ['ledger', 'accounts', 'tokens', 'liqIncentiveF'].map((k) =>
    member(s, k),
  );
  if (typeof ledger !== 'number' || typeof accounts !== 'number') return undefined;
  return {
    ledger,
    accounts,
    tokens: typeof tokens === 'number' ? tokens : tokens instanceof Map ? marketMap(tokens) : undefined,
    liqIncentiveF: natType.read(liqIncentiveF),
  };
}

/** A `tokens` map decoded with the storage: each market's figures by field name, keyed by token id. */
function marketMap(tokens: Map<unknown, unknown>): Map<bigint, MarketInfo> {
  const out = new Map<bigint, MarketInfo>();
  for (const [id, m] of tokens) {
    const key = natType.read(id);
    if (key === undefined) continue;
    const nat = (k: string) => natType.read(member(m, k));
    out.set(key, {
      mainToken: member(m, 'mainToken'),
      totalBorrowsF: nat('totalBorrowsF'),
      totalLiquidF: nat('totalLiquidF'),
      totalSupplyF: nat('totalSupplyF'),
      totalReservesF: nat('totalReservesF'),
      borrowIndex: nat('borrowIndex'),
      lastPrice: nat('lastPrice'),
      liquidReserveRateF: nat('liquidReserveRateF'),
    });
  }
  return out;
}

/**
 * The `(address, tokenId)` a `ledger`/`accounts` key names. Unannotated pair: read by type, whatever the decoder names
 * them.
 */
function keyOf(key: unknown): { owner: string; tokenId: bigint } | undefined {
  const k = keyType.decode(key);
  return k && { owner: k[0], tokenId: k[1] };
}

/**
 * Market `tokenId` as the call left it: from the storage's `tokens` map, or, where `tokens` is a big
 * map, from the call's update of it (undefined when the call did not write that market).
 */
export function marketInfo(s: YupanaStorage, diffs: readonly BigMapDiff[], tokenId: bigint): MarketInfo | undefined {
  if (s.tokens instanceof Map) return s.tokens.get(tokenId);
  const d = diffs.find((x) => x.action === 'update' && x.bigMapId === s.tokens && natType.decode(x.key) === tokenId);
  return d?.action === 'update' ? tokenType.decode(d.value) : undefined;
}

/**
 * The market's underlying token from `mainToken` (`fA12 address` or `fA2 (address, id)`); undefined when the storage
 * does not name it.
 */
export function marketToken(m: MarketInfo | undefined): LendingTokenRef | undefined {
  const main = m?.mainToken;
  const fa12 = member(main, 'fA12');
  if (typeof fa12 === 'string') return { standard: 'fa1.2', contract: fa12 };
  // The FA2 pair is unannotated: its address and id are read by type, whatever the decoder names them.
  const fa2 = member(main, 'fA2');
  const parts = fa2 instanceof Object ? Object.values(fa2) : [];
  const contract = parts.find((x): x is string => typeof x === 'string');
  const id = parts.find((x): x is bigint => typeof x === 'bigint');
  return contract !== undefined && id !== undefined ? { standard: 'fa2', contract, tokenId: id } : undefined;
}

/**
 * The market's totals from `tokens[tokenId]`: debt = totalBorrows, supply = what suppliers own
 * (liquidity + borrows − reserves), both in raw underlying, and with them the rates that value the
 * accounts' scaled figures (borrowIndex, that supply ×10^18, totalSupplyF); undefined without them.
 */
export function marketSupply(m: MarketInfo | undefined): LendingSupply | undefined {
  if (typeof m?.totalBorrowsF !== 'bigint' || typeof m.totalLiquidF !== 'bigint') return undefined;
  const liquidity = m.totalLiquidF + m.totalBorrowsF - (m.totalReservesF ?? 0n);
  const rates: LendingRates | undefined =
    typeof m.borrowIndex === 'bigint' && typeof m.totalSupplyF === 'bigint'
      ? { borrowIndex: m.borrowIndex, liquidity, shares: m.totalSupplyF }
      : undefined;
  return {
    totalDebt: m.totalBorrowsF / PRECISION,
    totalCollateral: liquidity / PRECISION,
    ...(rates ? { rates } : {}),
  };
}

/**
 * The owner's yToken balances and borrows as the call wrote them, per market (only what it wrote; a removed entry is
 * 0).
 */
export function accountsAfter(
  s: YupanaStorage,
  diffs: readonly BigMapDiff[],
  owner: string,
): Map<bigint, LendingAccount> {
  const out = new Map<bigint, { shares?: bigint; borrow?: { scaled: bigint; index: bigint } }>();
  const entry = (id: bigint) => out.get(id) ?? out.set(id, {}).get(id)!;
  for (const d of diffs) {
    if (
      (d.action !== 'update' && d.action !== 'remove') ||
      d.key === undefined ||
      (d.bigMapId !== s.ledger && d.bigMapId !== s.accounts)
    )
      continue;
    const k = keyOf(d.key);
    if (k?.owner !== owner) continue;
    if (d.bigMapId === s.ledger) entry(k.tokenId).shares = d.action === 'update' ? natType.decode(d.value) : 0n;
    else if (d.action === 'update') {
      const a = accountType.decode(d.value);
      if (a) entry(k.tokenId).borrow = { scaled: a.borrow, index: a.lastBorrowIndex };
    }
  }
  return out;
}

/**
 * The yTokens (×10^18) a liquidation of `amount` took from the borrower's collateral: what the
 * liquidator got and what went to the collateral market's reserves, by Yupana's liquidate formulas
 * (`seizeTokensF`, `reserveTokensF`) from the storage after the call, whose collateral liquidity is
 * lower than the formula's by the reserve share it added. Undefined without prices or the incentive.
 */
export function seized(
  s: YupanaStorage,
  borrowed: MarketInfo | undefined,
  collateral: MarketInfo | undefined,
  amount: bigint,
): { seize: bigint; reserve: bigint } | undefined {
  const [priceB, priceC, rate, supplyC] = [
    borrowed?.lastPrice,
    collateral?.lastPrice,
    collateral?.liquidReserveRateF,
    collateral?.totalSupplyF,
  ];
  const liquidityAfter = marketSupply(collateral)?.rates?.liquidity;
  if (
    priceB === undefined ||
    !priceC ||
    rate === undefined ||
    supplyC === undefined ||
    liquidityAfter === undefined ||
    s.liqIncentiveF === undefined
  )
    return undefined;
  const liqAmountF = amount * PRECISION;
  const reserve = (liqAmountF * rate * priceB) / (PRECISION * priceC);
  const liquidity = liquidityAfter + reserve;
  const seize =
    liquidity === 0n ? 0n : (liqAmountF * s.liqIncentiveF * priceB * supplyC) / (liquidity * PRECISION * priceC);
  return { seize, reserve };
}
