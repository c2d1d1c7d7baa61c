import { plainValue, type BigMapDiff, type MatchedStep } from '../../../../framework';
import { PLENTY_FARM_TYPES } from './types';

const t = (prim: string, annot?: string, args?: unknown[]) => ({
  prim,
  ...(annot ? { annots: [annot] } : {}),
  ...(args ? { args } : {}),
});
/**
 * The balances entry of Plenty's farms with lots and unstake fees (USDT.e/USDC.e and later): the
 * lots (`InvestMap`, raw amounts) and the balance, which the contract keeps scaled (×10^12 there).
 */
const LOT_ENTRY = t('pair', undefined, [
  t('pair', undefined, [
    t('map', '%InvestMap', [t('nat'), t('pair', undefined, [t('nat', '%amount'), t('nat', '%level')])]),
    t('nat', '%balance'),
  ]),
  t('pair', undefined, [
    t('nat', '%counter'),
    t('pair', undefined, [t('nat', '%rewards'), t('nat', '%userRewardPerTokenPaid')]),
  ]),
]);

/** The fields of a Plenty farm storage the adapter reads (names as the contracts annotate them). */
export interface FarmStorage {
  balances: number;
  totalSupply: bigint;
  stakeToken: string;
  rewardToken: string;
  faTwoToken?: boolean;
  rewardRate?: bigint;
  periodFinish?: bigint;
  lastUpdateTime?: bigint;
}

/** A staker's entry after the call: the raw stake when the contract tells it, pending rewards, lot counter. */
export interface OwnerEntry {
  /** The owner's stake after the call in raw stake units (the sum of its lots, or the plain balance). */
  stake?: bigint;
  /** Contract units per raw stake unit (1 for plain `address → nat` balances); undefined when no lot shows it. */
  scale?: bigint;
  pending?: bigint;
  counter?: bigint;
}

/**
 * A call's storage after it and its argument, when the storage is a Plenty farm's: read with the
 * contract's own types when the step has them, else with the shipped real types (strictly: a storage
 * of another shape is no Plenty farm's); undefined otherwise.
 */
export function farmCall(step: MatchedStep): { storage: FarmStorage; parameters: unknown } | undefined {
  if (step.decoded) {
    const storage = farmStorage(step.storage);
    return storage && { storage, parameters: step.parameters };
  }
  try {
    const storage = farmStorage(PLENTY_FARM_TYPES.storage(step.op.storage, { strict: true }));
    const parameters = storage && PLENTY_FARM_TYPES.parameters(step.entrypoint, step.op.parameters, { strict: true });
    return storage && { storage, parameters };
  } catch {
    return undefined;
  }
}

/** The storage when it is a Plenty farm's (a stake token, a reward token and a total); else undefined. */
function farmStorage(v: unknown): FarmStorage | undefined {
  const s = v as Partial<FarmStorage> | undefined;
  return typeof s?.totalSupply === 'bigint' &&
    typeof s.stakeToken === 'string' &&
    typeof s.rewardToken === 'string' &&
    typeof s.balances === 'number'
    ? (s as FarmStorage)
    : undefined;
}

/** Rewards the schedule still has to pay (rate × levels left to the period's end); null without a schedule. */
export function remainingRewards(s: FarmStorage): bigint | null {
  if (s.rewardRate === undefined || s.periodFinish === undefined || s.lastUpdateTime === undefined) return null;
  return s.periodFinish > s.lastUpdateTime ? s.rewardRate * (s.periodFinish - s.lastUpdateTime) : 0n;
}

/**
 * The owner's balances entry as the call left it (from the big map diffs); undefined when the call did not touch it.
 */
export function ownerEntry(s: FarmStorage, diffs: readonly BigMapDiff[], owner: string): OwnerEntry | undefined {
  for (const d of diffs) {
    if (
      (d.action !== 'update' && d.action !== 'remove') ||
      d.bigMapId !== s.balances ||
      d.key === undefined ||
      plainValue(t('address'), d.key) !== owner
    )
      continue;
    // A removed entry shows no lots: the scale stays unknown (the stake is then the recorded one moved).
    if (d.action === 'remove') return { stake: 0n };
    const plain = plainValue(t('nat'), d.value);
    if (typeof plain === 'bigint') return { scale: 1n, stake: plain };
    const lots = plainValue(LOT_ENTRY, d.value) as
      { InvestMap?: Map<bigint, { amount: bigint }>; balance?: bigint; counter?: bigint; rewards?: bigint } | undefined;
    if (typeof lots?.balance !== 'bigint' || !(lots.InvestMap instanceof Map)) continue;
    const raw = [...lots.InvestMap.values()].reduce((n, l) => n + l.amount, 0n);
    // The scale shows only while lots are left and divide the balance exactly.
    const scale = raw > 0n && lots.balance % raw === 0n ? lots.balance / raw : undefined;
    return { stake: raw, scale, pending: lots.rewards, counter: lots.counter };
  }
  return undefined;
}
