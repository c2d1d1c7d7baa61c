/**
 * The stages of an election in order. Pre-Edo protocols ran the first four (testing_vote, testing and
 * promotion_vote are mapped onto exploration, cooldown and promotion by the normalizer); Edo added
 * adoption. Every election starts with a proposal period, and periods of one election are consecutive.
 */
export const PERIOD_KINDS = ['proposal', 'exploration', 'cooldown', 'promotion', 'adoption'] as const;
export type PeriodKind = (typeof PERIOD_KINDS)[number];

export function isPeriodKind(kind: string | undefined): kind is PeriodKind {
  return PERIOD_KINDS.some((k) => k === kind);
}

/** 0-based position of a period kind in its election (the explorer's `{stage}` is this + 1). */
export function stageOf(kind: PeriodKind): number {
  return PERIOD_KINDS.indexOf(kind);
}

/** Kinds whose bakers cast yay/nay/pass ballots. */
export function isBallotKind(kind: PeriodKind): boolean {
  return kind === 'exploration' || kind === 'promotion';
}

/**
 * Whether a period succeeded, read off what the chain did next: the kind of the following period,
 * and for a pre-Edo promotion (followed by a proposal period either way) whether its last block
 * switched protocols. Cooldown and adoption cannot fail.
 */
export function periodSucceeded(kind: PeriodKind, next: PeriodKind, protocolChanged: boolean): boolean {
  switch (kind) {
    case 'proposal':
      return next === 'exploration';
    case 'exploration':
      return next === 'cooldown';
    case 'promotion':
      return next === 'adoption' || (next === 'proposal' && protocolChanged);
    default:
      return true;
  }
}
