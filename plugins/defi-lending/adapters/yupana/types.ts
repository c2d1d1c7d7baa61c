/*
 * Why: Yupana's big map value and key types (yupana-protocol-core, every version the adapter reads), so
 * `npm run gen` gives their decoded types and checked readers (`types.gen.ts`). Real facts only: no decoder here.
 */
const t = (prim: string, annot?: string, args?: unknown[]) => ({
  prim,
  ...(annot ? { annots: [annot] } : {}),
  ...(args ? { args } : {}),
});
const comb = (...fields: object[]): object =>
  fields.length === 1 ? fields[0] : t('pair', undefined, [fields[0], comb(...fields.slice(1))]);

/** `(address, tokenId)`: the key of Yupana's `ledger` and `accounts`. */
export const KEY = t('pair', undefined, [t('address'), t('nat')]);
/** `accounts` values (yupana-protocol-core `account`, every version): allowances, borrow ×10^18, lastBorrowIndex. */
export const ACCOUNT = comb(t('set', '%allowances', [t('address')]), t('nat', '%borrow'), t('nat', '%lastBorrowIndex'));
/**
 * `tokens` values where `tokens` is a big map (yupana-protocol-core `tokenType`; the hangzhou-era contract keeps a map,
 * decoded with the storage).
 */
export const TOKEN = comb(
  t('or', '%mainToken', [t('address', '%fA12'), t('pair', '%fA2', [t('address'), t('nat')])]),
  t('address', '%interestRateModel'),
  t('timestamp', '%interestUpdateTime'),
  t('timestamp', '%priceUpdateTime'),
  t('nat', '%totalBorrowsF'),
  t('nat', '%totalLiquidF'),
  t('nat', '%totalSupplyF'),
  t('nat', '%totalReservesF'),
  t('nat', '%borrowIndex'),
  t('nat', '%maxBorrowRate'),
  t('nat', '%collateralFactorF'),
  t('nat', '%liquidReserveRateF'),
  t('nat', '%reserveFactorF'),
  t('nat', '%lastPrice'),
  t('bool', '%borrowPause'),
  t('bool', '%enterMintPause'),
  t('bool', '%isInterestUpdating'),
  t('nat', '%threshold'),
);
/** A nat: `ledger` values (yTokens ×10^18) and `tokens` keys (token ids). */
export const NAT = t('nat');
