import { member, plainValue, type BigMapDiff } from '../../../../framework';

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
  const big = (k: string) => {
    const x = member(v, k);
    return typeof x === 'bigint' ? x : undefined;
  };
  const text = (k: string) => {
    const x = member(v, k);
    return typeof x === 'string' ? x : undefined;
  };
  const [totalStake, discFactor, lastBalance, tokenId] = ['total_stake', 'disc_factor', 'last_balance', 'token_id'].map(
    big,
  );
  const [tokenAddress, vestingContract] = [text('token_address'), text('vesting_contract')];
  const stakes = member(v, 'stakes');
  if (totalStake === undefined || discFactor === undefined || lastBalance === undefined || typeof stakes !== 'number')
    return undefined;
  if (tokenAddress === undefined || tokenId === undefined || vestingContract === undefined) return undefined;
  return {
    totalStake,
    discFactor,
    lastBalance,
    stakes,
    tokenAddress,
    tokenId,
    vestingContract,
    sender: text('sender') ?? '',
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
