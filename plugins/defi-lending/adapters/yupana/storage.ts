import type { LendingSupply, LendingTokenRef } from '../../core/LendingAdapter';

/** Yupana keeps market totals ×10^18 (its `…F` fields). */
const PRECISION = 10n ** 18n;

/** The fields of one Yupana market (`tokens[tokenId]`) the adapter reads. */
interface MarketInfo {
  mainToken?: unknown;
  totalBorrowsF?: bigint;
  totalLiquidF?: bigint;
  totalReservesF?: bigint;
}

/** A Yupana storage: `ledger` and `accounts` big maps (a sandbox-style market has only these) and maybe the `tokens` map. */
export interface YupanaStorage {
  ledger: number;
  accounts: number;
  tokens?: Map<bigint, MarketInfo>;
}

/** The storage when it is a Yupana one (the real contract nests it under `storage`); else undefined. */
export function yupanaStorage(v: unknown): YupanaStorage | undefined {
  const outer = v as { storage?: unknown } | undefined;
  const s = (outer && typeof outer === 'object' && 'storage' in outer ? outer.storage : outer) as Partial<YupanaStorage> | undefined;
  return typeof s?.ledger === 'number' && typeof s.accounts === 'number' ? (s as YupanaStorage) : undefined;
}

/** The market's underlying token from `mainToken` (`fA12 address` or `fA2 (address, id)`); undefined when the storage has no tokens map. */
export function marketToken(s: YupanaStorage, tokenId: bigint): LendingTokenRef | undefined {
  const main = s.tokens?.get(tokenId)?.mainToken as { fA12?: unknown; fA2?: unknown } | undefined;
  if (typeof main?.fA12 === 'string') return { standard: 'fa1.2', contract: main.fA12 };
  // The FA2 pair is unannotated: its address and id are read by type, whatever the decoder names them.
  const parts = main?.fA2 && typeof main.fA2 === 'object' ? Object.values(main.fA2) : [];
  const contract = parts.find((x): x is string => typeof x === 'string');
  const id = parts.find((x): x is bigint => typeof x === 'bigint');
  return contract !== undefined && id !== undefined ? { standard: 'fa2', contract, tokenId: id } : undefined;
}

/**
 * The market's totals after the call from `tokens[tokenId]`: debt = totalBorrows, supply = what
 * suppliers own (liquidity + borrows − reserves), both in raw underlying; undefined without a tokens map.
 */
export function marketSupply(s: YupanaStorage, tokenId: bigint): LendingSupply | undefined {
  const m = s.tokens?.get(tokenId);
  if (typeof m?.totalBorrowsF !== 'bigint' || typeof m.totalLiquidF !== 'bigint') return undefined;
  const reserves = m.totalReservesF ?? 0n;
  return { totalDebt: m.totalBorrowsF / PRECISION, totalCollateral: (m.totalLiquidF + m.totalBorrowsF - reserves) / PRECISION };
}
