import { asBoolean, asInt, asNonEmptyString, asString, isRecord, withoutUndefined } from './jsonRead';

/** Who a frozen deposit belongs to (Oxford+ `staker` object; keys renamed to camelCase). */
export interface Staker {
  contract?: string;
  delegate?: string;
  bakerOwnStake?: string;
  bakerEdge?: string;
  /** Oxford only: `{baker}`. */
  baker?: string;
}

/**
 * One normalized balance update, for every receipt model: Emmy (`contract` / `freezer` with
 * `rewards|fees|deposits` and `cycle` or proto-003 `level`), Ithaca+ (`minted`, `burned`,
 * `accumulator`, `commitment`, `legacy_*`), Oxford+ (`staker`, `unstaked_deposits`, pseudotoken `staking`).
 */
export interface BalanceUpdate {
  /** Raw node kind: contract, freezer, accumulator, minted, burned, commitment, staking, … */
  kind: string;
  /** Category with the Oxford/Mumbai renames applied (`endorsing rewards` → `attesting rewards`, …). */
  category?: string;
  /** Category exactly as the node wrote it. */
  rawCategory?: string;
  /** block | migration | subsidy | simulation | delayed_operation; absent before Florence. */
  origin?: string;
  /** Signed change. Mutez, except for `kind: "staking"` (pseudotokens, see `isPseudotoken`). */
  change: bigint;
  /**
   * The account whose balance moves (contract, freezer owner, staker, delegator); absent for sinks/sources like minted
   * and burned.
   */
  account?: string;
  contract?: string;
  delegate?: string;
  staker?: Staker;
  delegator?: string;
  committer?: string;
  cycle?: number;
  bondId?: { txRollup?: string; smartRollup?: string };
  participation?: boolean;
  revelation?: boolean;
  delayedOperationHash?: string;
  /** `kind: "staking"` counts staking pseudotokens, not mutez: never add it to money totals. */
  isPseudotoken: boolean;
}

export const KNOWN_BALANCE_UPDATE_KINDS: ReadonlySet<string> = new Set([
  'contract',
  'freezer',
  'accumulator',
  'minted',
  'burned',
  'commitment',
  'staking',
]);

const CATEGORY_RENAMES: Readonly<Record<string, string>> = {
  'endorsing rewards': 'attesting rewards',
  'lost endorsing rewards': 'lost attesting rewards',
  sc_rollup_refutation_rewards: 'smart_rollup_refutation_rewards',
  sc_rollup_refutation_punishments: 'smart_rollup_refutation_punishments',
};

function toStaker(raw: unknown): Staker | undefined {
  if (!isRecord(raw)) return undefined;
  return withoutUndefined<Staker>({
    contract: asString(raw.contract),
    delegate: asString(raw.delegate),
    bakerOwnStake: asString(raw.baker_own_stake),
    bakerEdge: asString(raw.baker_edge),
    baker: asString(raw.baker),
  });
}

function stakerAccount(s: Staker): string | undefined {
  return s.contract ?? s.bakerOwnStake ?? s.bakerEdge ?? s.baker ?? s.delegate;
}

/**
 * Normalizes one raw entry. `change` must already be parsed (the caller reports bad numbers with
 * its own context); a missing kind becomes `"unknown"`.
 */
export function toBalanceUpdate(raw: Record<string, unknown>, change: bigint): BalanceUpdate {
  const kind = asString(raw.kind) ?? 'unknown';
  const rawCategory = asString(raw.category);
  const staker = toStaker(raw.staker);
  const contract = asString(raw.contract);
  const delegate = asString(raw.delegate);
  const delegator = asString(raw.delegator);
  let account: string | undefined;
  if (kind === 'contract') account = contract;
  else if (kind === 'freezer') account = (staker && stakerAccount(staker)) ?? contract ?? delegate;
  else if (kind === 'staking') account = delegator ?? delegate;
  const bond = isRecord(raw.bond_id) ? raw.bond_id : undefined;
  return withoutUndefined<BalanceUpdate>({
    kind,
    category: rawCategory === undefined ? undefined : (CATEGORY_RENAMES[rawCategory] ?? rawCategory),
    rawCategory,
    origin: asString(raw.origin),
    change,
    account,
    contract,
    delegate,
    staker,
    delegator,
    committer: asString(raw.committer),
    // Protocol 003 wrote the freezer cycle into `level`.
    cycle: asInt(raw.cycle) ?? asInt(raw.level),
    bondId: bond && withoutUndefined({ txRollup: asString(bond.tx_rollup), smartRollup: asString(bond.smart_rollup) }),
    participation: asBoolean(raw.participation),
    revelation: asBoolean(raw.revelation),
    delayedOperationHash: asNonEmptyString(raw.delayed_operation_hash),
    isPseudotoken: kind === 'staking',
  });
}
