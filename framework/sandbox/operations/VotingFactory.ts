import type { BlockContext } from '../BlockContext';
import { b58, blake2bOf, PrefixV2 } from '../Hashing';
import { signatureFor } from '../Keys';

/** The protocol proposed in the governance round that `periodIndex` belongs to (5 periods per round). */
export function proposalOf(seed: string, periodIndex: number): string {
  const round = periodIndex - (periodIndex % 5);
  return b58(blake2bOf(32, 'tzidx-sandbox-proposal', seed, String(round)), PrefixV2.ProtocolHash);
}

/**
 * Pass 1: `proposals` during proposal periods and `ballot`s during exploration and promotion, each
 * baker at most once per period, so every governance round completes (see ChainCalendar).
 */
export function buildVotingOperations(ctx: BlockContext): Record<string, unknown>[] {
  const { book, prng, calendar } = ctx;
  const info = calendar.votingPeriodInfo(ctx.level);
  const { index, kind } = info.voting_period;
  if (kind !== 'proposal' && kind !== 'exploration' && kind !== 'promotion') return [];
  const votedVar = `voted-${index}`;
  const voted = new Set(book.getVar<number[]>(votedVar, []));
  const pending = book.bakers.filter((b) => !voted.has(b.index));
  if (pending.length === 0) return [];
  // Spread the votes over the period so the last ones still land before it ends.
  const expected = Math.max(1, Math.ceil(pending.length / Math.max(1, info.remaining + 1)));
  const count = Math.min(pending.length, prng.chance(0.5) ? expected : 0);
  const out: Record<string, unknown>[] = [];
  const proposal = proposalOf(ctx.seedLabel, index);
  for (let i = 0; i < count; i++) {
    const baker = pending[i];
    voted.add(baker.index);
    const content =
      kind === 'proposal'
        ? { kind: 'proposals', source: baker.address, period: index, proposals: [proposal], metadata: {} }
        : {
            kind: 'ballot',
            source: baker.address,
            period: index,
            proposal,
            ballot: prng.chance(0.85) ? 'yay' : prng.chance(0.5) ? 'nay' : 'pass',
            metadata: {},
          };
    out.push(
      ctx.group(ctx.newOperationHash().hash, [content], signatureFor(prng, book.get(baker.address).kind ?? 'tz1')),
    );
  }
  if (count > 0) book.setVar(votedVar, [...voted]);
  return out;
}
