import { plainValue, type BigMapDiff } from '../../../../framework';
import type { FarmTokenRef } from '../../core/FarmAdapter';

/**
 * QuipuSwap farming storage (madfish-solutions/quipuswap-farming, `i_q_farm.ligo` / `i_t_farm.ligo`):
 * the contract's record sits under `storage`, farms and stakers in big maps whose entries the call's
 * big map diffs carry. The value types below are the contracts' (comb records, LIGO annotations).
 */
const t = (prim: string, annot?: string, args?: unknown[]) => ({
  prim,
  ...(annot ? { annots: [annot] } : {}),
  ...(args ? { args } : {}),
});
const comb = (annot: string | undefined, ...fields: unknown[]): unknown =>
  fields.length === 2 ? t('pair', annot, fields) : t('pair', annot, [fields[0], comb(undefined, ...fields.slice(1))]);
const FA2 = (annot: string) => comb(annot, t('address', '%token'), t('nat', '%id'));
const TOKEN = (annot: string) => t('or', annot, [t('address', '%fA12'), FA2('%fA2')]);
const STAKE_PARAMS = comb('%stake_params', TOKEN('%staked_token'), t('bool', '%is_v2_lp'));

/** farms[fid]: TFarm (any reward token, funded, with an end) and QFarm (QUIPU minted, no end, a burn reward fee). */
const farmType = (fees: unknown, rewardToken: unknown, end: unknown[]) =>
  comb(
    undefined,
    fees,
    t('timestamp', '%upd'),
    STAKE_PARAMS,
    rewardToken,
    t('nat', '%timelock'),
    t('key_hash', '%current_delegated'),
    t('key_hash', '%next_candidate'),
    t('bool', '%paused'),
    t('nat', '%reward_per_second'),
    t('nat', '%reward_per_share'),
    t('nat', '%staked'),
    t('nat', '%claimed'),
    t('timestamp', '%start_time'),
    ...end,
    t('nat', '%fid'),
  );
const T_FARM = farmType(comb('%fees', t('nat', '%harvest_fee'), t('nat', '%withdrawal_fee')), TOKEN('%reward_token'), [
  t('timestamp', '%end_time'),
]);
const Q_FARM = farmType(
  comb('%fees', t('nat', '%harvest_fee'), t('nat', '%withdrawal_fee'), t('nat', '%burn_reward')),
  FA2('%reward_token'),
  [],
);
// The key `(fid, address)` is unannotated on chain: named here to read it.
const USER_KEY = t('pair', undefined, [t('nat', '%fid'), t('address', '%user')]);
const USER = comb(
  undefined,
  t('timestamp', '%last_staked'),
  t('nat', '%staked'),
  t('nat', '%earned'),
  t('nat', '%claimed'),
  t('nat', '%prev_earned'),
  t('nat', '%prev_staked'),
  t('set', '%allowances', [t('address')]),
);

/** Fixed-point precision of reward_per_second, reward_per_share, earned and the fees. */
export const PRECISION = 10n ** 18n;

export type Kind = 'qfarm' | 'tfarm';

/** The farms contract's record: its big map ids and which family it is (QFarm has a proxy minter). */
export interface FarmsStorage {
  kind: Kind;
  farms: number;
  usersInfo: number;
}

export interface FarmRecord {
  fees: { harvest_fee: bigint; withdrawal_fee: bigint };
  upd: Date;
  stake_params: { staked_token: Record<string, unknown>; is_v2_lp: boolean };
  reward_token: Record<string, unknown>;
  timelock: bigint;
  reward_per_second: bigint;
  reward_per_share: bigint;
  staked: bigint;
  claimed: bigint;
  start_time: Date;
  /** TFarm only. */
  end_time?: Date;
}

export interface UserInfo {
  last_staked: Date;
  staked: bigint;
  earned: bigint;
  claimed: bigint;
  prev_earned: bigint;
}

/** The storage when it is a QuipuSwap farms contract's (`storage.{farms, users_info, farms_count}`); else undefined. */
export function farmsStorage(v: unknown): FarmsStorage | undefined {
  const s = (v as { storage?: Record<string, unknown> } | undefined)?.storage;
  if (!s || typeof s.farms !== 'number' || typeof s.users_info !== 'number' || typeof s.farms_count !== 'bigint')
    return undefined;
  return { kind: typeof s.proxy_minter === 'string' ? 'qfarm' : 'tfarm', farms: s.farms, usersInfo: s.users_info };
}

/** Farm entries the call wrote, by fid. */
export function farmsWritten(s: FarmsStorage, diffs: readonly BigMapDiff[]): Map<bigint, FarmRecord> {
  const out = new Map<bigint, FarmRecord>();
  for (const d of diffs) {
    if (d.action !== 'update' || d.bigMapId !== s.farms || d.key === undefined || d.value === undefined) continue;
    const fid = plainValue(t('nat'), d.key);
    const farm = plainValue(s.kind === 'qfarm' ? Q_FARM : T_FARM, d.value) as FarmRecord | undefined;
    if (typeof fid === 'bigint' && typeof farm?.staked === 'bigint') out.set(fid, farm);
  }
  return out;
}

/** The staker's entry of farm `fid` as the call left it; undefined when the call did not write it. */
export function userWritten(
  s: FarmsStorage,
  diffs: readonly BigMapDiff[],
  fid: bigint,
  owner: string,
): UserInfo | undefined {
  for (const d of diffs) {
    if (d.action !== 'update' || d.bigMapId !== s.usersInfo || d.key === undefined || d.value === undefined) continue;
    const key = plainValue(USER_KEY, d.key) as { fid?: unknown; user?: unknown } | undefined;
    if (key?.fid !== fid || key.user !== owner) continue;
    const user = plainValue(USER, d.value) as UserInfo | undefined;
    if (typeof user?.earned === 'bigint') return user;
  }
  return undefined;
}

/** `token_type` (`fA12 address | fA2 {token, id}`) or QFarm's bare `fa2_type`. */
export function tokenRef(v: Record<string, unknown>): FarmTokenRef {
  if (typeof v.fA12 === 'string') return { standard: 'fa1.2', contract: v.fA12 };
  const fa2 = (v.fA2 ?? v) as { token: string; id: bigint };
  return { standard: 'fa2', contract: fa2.token, tokenId: fa2.id };
}

/**
 * Rewards the schedule still has to pay: TFarm's rate over the time left to `end_time`; QFarm mints without an end
 * (null).
 */
export function remainingRewards(f: FarmRecord): bigint | null {
  if (!f.end_time) return null;
  const from = Math.max(f.upd.getTime(), f.start_time.getTime());
  const left = BigInt(Math.max(0, f.end_time.getTime() - from) / 1000);
  return (left * f.reward_per_second) / PRECISION;
}
