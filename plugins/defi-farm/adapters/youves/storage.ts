import { plainValue, type BigMapDiff } from '../../../../framework';

/**
 * The Youves savings pool storage (youves-smart-contract `savings_pool.py`; the mainnet pools' field
 * set as youves-indexer's `youves_savings` schema lists it): `total_stake` and `stakes[owner]` are
 * stakes discounted to t=0, `disc_factor` (10^12 precision) values them in tokens, `last_balance` is
 * the token balance the pool has accounted for.
 */
export interface SavingsStorage {
  totalStake: bigint;
  discFactor: bigint;
  lastBalance: bigint;
  stakes: number;
  tokenAddress: string;
  tokenId: bigint;
  vestingContract: string;
  /** The saver the pool is serving (set by `deposit`/`withdraw` for their internal step). */
  sender: string;
}

/** disc_factor's precision (`Constants.PRECISION_FACTOR`). */
export const PRECISION = 10n ** 12n;

/**
 * The storage when it is a savings pool's (`total_stake`, `disc_factor`, `stakes`, `token_address`,
 * `vesting_contract`); else undefined.
 */
export function savingsStorage(v: unknown): SavingsStorage | undefined {
  const s = v as Record<string, unknown> | undefined;
  if (
    !s ||
    typeof s.total_stake !== 'bigint' ||
    typeof s.disc_factor !== 'bigint' ||
    typeof s.last_balance !== 'bigint' ||
    typeof s.stakes !== 'number'
  )
    return undefined;
  if (typeof s.token_address !== 'string' || typeof s.token_id !== 'bigint' || typeof s.vesting_contract !== 'string')
    return undefined;
  return {
    totalStake: s.total_stake,
    discFactor: s.disc_factor,
    lastBalance: s.last_balance,
    stakes: s.stakes,
    tokenAddress: s.token_address,
    tokenId: s.token_id,
    vestingContract: s.vesting_contract,
    sender: typeof s.sender === 'string' ? s.sender : '',
  };
}

/** stakes[owner] as the call left it: the new value, 0 when it deleted the entry, undefined when untouched. */
export function stakeWritten(s: SavingsStorage, diffs: readonly BigMapDiff[], owner: string): bigint | undefined {
  let out: bigint | undefined;
  for (const d of diffs) {
    if (
      (d.action !== 'update' && d.action !== 'remove') ||
      d.bigMapId !== s.stakes ||
      d.key === undefined ||
      plainValue({ prim: 'address' }, d.key) !== owner
    )
      continue;
    if (d.action === 'remove') out = 0n;
    else {
      const v = plainValue({ prim: 'nat' }, d.value);
      if (typeof v === 'bigint') out = v;
    }
  }
  return out;
}
