import { asDate, type BigMapDiff, type MatchedStep } from '../../../../framework';
import type { FarmTokenRef } from '../../core/FarmAdapter';
import {
  natType,
  type QfarmEntry,
  qfarmEntryType,
  quipuQfarmCode,
  quipuTfarmCode,
  type QuipuTfarmParameters,
  type TfarmEntry,
  tfarmEntryType,
  type UsersInfoEntry,
  usersInfoEntryType,
  usersInfoKeyType,
} from './types.gen';

/**
 * Why: QuipuSwap farming storage (madfish-solutions/quipuswap-farming, `i_q_farm.ligo` / `i_t_farm.ligo`) read with
 * the shipped types (`types.ts`, checked readers in `types.gen.ts`): the contract's record sits under `storage`,
 * farms and stakers in big maps whose entries the call's big map diffs carry.
 */

/** Fixed-point precision of reward_per_second, reward_per_share, earned and the fees. */
export const PRECISION = 10n ** 18n;

export type Kind = 'qfarm' | 'tfarm';

/** The farms contract's record: its big map ids and which family it is. */
export interface FarmsStorage {
  kind: Kind;
  farms: number;
  usersInfo: number;
}

/** A `farms` entry: QFarm's (QUIPU minted, no end) or TFarm's (any funded reward token, an end time). */
export type FarmRecord = QfarmEntry | TfarmEntry;
export type UserInfo = UsersInfoEntry;

/** A staker's call, its argument typed (the same in both families). */
export type UserCall =
  | { entrypoint: 'deposit'; args: QuipuTfarmParameters['deposit'] }
  | { entrypoint: 'withdraw'; args: QuipuTfarmParameters['withdraw'] }
  | { entrypoint: 'harvest'; args: QuipuTfarmParameters['harvest'] };

/** The storage when it is a QuipuSwap farms contract's (all of it fits QFarm's or TFarm's type); else undefined. */
export function farmsStorage(v: unknown): FarmsStorage | undefined {
  const q = quipuQfarmCode.storage(v)?.storage;
  const t = q ? undefined : quipuTfarmCode.storage(v)?.storage;
  const s = q ?? t;
  if (typeof s?.farms !== 'number' || typeof s.users_info !== 'number') return undefined;
  return { kind: q ? 'qfarm' : 'tfarm', farms: s.farms, usersInfo: s.users_info };
}

/** A staker's call (`deposit`, `withdraw`, `harvest`) of the family's type; undefined for other calls. */
export function userCall(s: FarmsStorage, step: MatchedStep): UserCall | undefined {
  const c = (s.kind === 'qfarm' ? quipuQfarmCode : quipuTfarmCode).call(step);
  switch (c?.entrypoint) {
    case 'deposit':
      return { entrypoint: c.entrypoint, args: c.args };
    case 'withdraw':
      return { entrypoint: c.entrypoint, args: c.args };
    case 'harvest':
      return { entrypoint: c.entrypoint, args: c.args };
  }
  return undefined;
}

/** Farm entries the call wrote, by fid. */
export function farmsWritten(s: FarmsStorage, diffs: readonly BigMapDiff[]): Map<bigint, FarmRecord> {
  const out = new Map<bigint, FarmRecord>();
  const entry = s.kind === 'qfarm' ? qfarmEntryType : tfarmEntryType;
  for (const d of diffs) {
    if (d.action !== 'update' || d.bigMapId !== s.farms) continue;
    const [fid, farm] = [natType.decode(d.key), entry.decode(d.value)];
    if (fid !== undefined && farm) out.set(fid, farm);
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
    if (d.action !== 'update' || d.bigMapId !== s.usersInfo) continue;
    const key = usersInfoKeyType.decode(d.key);
    if (key?.[0] !== fid || key[1] !== owner) continue;
    const user = usersInfoEntryType.decode(d.value);
    if (user) return user;
  }
  return undefined;
}

/** The farm's stake token: `token_type` (`fA12 address | fA2 {token, id}`). */
export function stakeOf(f: FarmRecord): FarmTokenRef {
  const t = f.stake_params.staked_token;
  return 'fA12' in t ? { standard: 'fa1.2', contract: t.fA12 } : fa2(t.fA2);
}

/** The farm's reward token: TFarm's `token_type`, QFarm's bare `fa2_type` (QUIPU). */
export function rewardOf(f: FarmRecord): FarmTokenRef {
  const t = f.reward_token;
  if ('fA12' in t) return { standard: 'fa1.2', contract: t.fA12 };
  return fa2('fA2' in t ? t.fA2 : t);
}

const fa2 = (t: { token: string; id: bigint }): FarmTokenRef => ({ standard: 'fa2', contract: t.token, tokenId: t.id });

/** The farm's period: its start, and TFarm's end (QFarm has none: null). */
export function period(f: FarmRecord): { start: Date; end: Date | null } {
  return { start: asDate(f.start_time), end: 'end_time' in f ? asDate(f.end_time) : null };
}

/**
 * Rewards the schedule still has to pay: TFarm's rate over the time left to `end_time`; QFarm mints without an end
 * (null).
 */
export function remainingRewards(f: FarmRecord): bigint | null {
  const { start, end } = period(f);
  if (!end) return null;
  const from = Math.max(asDate(f.upd).getTime(), start.getTime());
  const left = BigInt(Math.max(0, end.getTime() - from) / 1000);
  return (left * f.reward_per_second) / PRECISION;
}
