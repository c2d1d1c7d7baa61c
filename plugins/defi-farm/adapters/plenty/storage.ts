import { member, type BigMapDiff, type MatchedStep, type TypedCall } from '../../../../framework';
import { PLENTY_FARM_TYPES } from './types';
import {
  addressType,
  balanceEntryType,
  natType,
  plentyFarmTypesCode,
  type PlentyFarmTypesParameters,
} from './types.gen';

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

/** A call of a `unit` entrypoint (`GetReward`) carries no parameters in its operation. */
const UNIT = { prim: 'Unit' };

/** A farm call: the shipped version's entrypoints, or the older farms' `unstake nat` (read with a node's types). */
export type FarmCall = TypedCall<PlentyFarmTypesParameters> | { entrypoint: 'unstake'; args: bigint };

/**
 * A call's storage after it and its argument, when the storage is a Plenty farm's: read with the
 * contract's own types when the step has them, else with the shipped real types (all of the storage
 * must fit them: a storage of another shape is no Plenty farm's); undefined otherwise. The call is
 * undefined when its argument fits no farm's entrypoint.
 */
export function farmCall(step: MatchedStep): { storage: FarmStorage; call: FarmCall | undefined } | undefined {
  const storage = step.decoded
    ? (shipped(plentyFarmTypesCode.storage(step.storage)) ?? otherBuild(step.storage))
    : shipped(plentyFarmTypesCode.storage(PLENTY_FARM_TYPES.storage(step.op.storage)));
  // The argument as the operation carries it (a decoded `unit` argument reads back as Micheline in the step).
  const op = { entrypoint: step.op.entrypoint, parameters: step.op.parameters ?? UNIT };
  const older = step.op.entrypoint === 'unstake' ? natType.decode(op.parameters) : undefined;
  const call =
    older === undefined ? plentyFarmTypesCode.decodeCall(op) : { entrypoint: 'unstake' as const, args: older };
  return storage && { storage, call };
}

/** The shipped version's storage as the adapter reads it (its big map id: a storage after a call has one). */
function shipped(s: ReturnType<typeof plentyFarmTypesCode.storage>): FarmStorage | undefined {
  return s && typeof s.balances === 'number' ? { ...s, balances: s.balances } : undefined;
}

/**
 * The storage of a farm of another build, decoded with its own types (the older farms with `address → nat`
 * balances, the sandbox model): the fields the adapter reads, by name; undefined without a stake token, a
 * reward token, a total and a balances big map.
 */
function otherBuild(v: unknown): FarmStorage | undefined {
  const [balances, totalSupply, stakeToken, rewardToken] = ['balances', 'totalSupply', 'stakeToken', 'rewardToken'].map(
    (k) => member(v, k),
  );
  if (typeof balances !== 'number' || typeof totalSupply !== 'bigint') return undefined;
  if (typeof stakeToken !== 'string' || typeof rewardToken !== 'string') return undefined;
  const nat = (k: string) => natType.read(member(v, k));
  const faTwoToken = member(v, 'faTwoToken');
  return {
    balances,
    totalSupply,
    stakeToken,
    rewardToken,
    faTwoToken: typeof faTwoToken === 'boolean' ? faTwoToken : undefined,
    rewardRate: nat('rewardRate'),
    periodFinish: nat('periodFinish'),
    lastUpdateTime: nat('lastUpdateTime'),
  };
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
      addressType.decode(d.key) !== owner
    )
      continue;
    // A removed entry shows no lots: the scale stays unknown (the stake is then the recorded one moved).
    if (d.action === 'remove') return { stake: 0n };
    const plain = natType.decode(d.value);
    if (plain !== undefined) return { scale: 1n, stake: plain };
    const lots = balanceEntryType.decode(d.value);
    if (!lots) continue;
    const raw = [...lots.InvestMap.values()].reduce((n, l) => n + l.amount, 0n);
    // The scale shows only while lots are left and divide the balance exactly.
    const scale = raw > 0n && lots.balance % raw === 0n ? lots.balance / raw : undefined;
    return { stake: raw, scale, pending: lots.rewards, counter: lots.counter };
  }
  return undefined;
}
