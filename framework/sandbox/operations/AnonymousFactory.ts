import { BalanceUpdates } from '../BalanceUpdates';
import type { BlockContext } from '../BlockContext';
import { b58, PrefixV2 } from '../Hashing';
import { signatureFor } from '../Keys';
import { payReward, SEED_NONCE_TIP, VDF_TIP } from '../Rewards';
import { recordDenunciation } from '../Slashing';

/**
 * Pass 2: seed nonce revelations (for the previous cycle's commitments, early in the cycle), one VDF
 * revelation per cycle, and rarely a denunciation (`double_baking_evidence`,
 * `double_consensus_operation_evidence`) or a `drain_delegate`.
 */
export function buildAnonymousOperations(ctx: BlockContext): Record<string, unknown>[] {
  const { book, prng, profile, calendar } = ctx;
  const out: Record<string, unknown>[] = [];
  const info = calendar.levelInfo(ctx.level);
  const threshold = Math.max(1, Math.floor(profile.blocksPerCycle / 16));
  const baker = book.baker(ctx.baker);
  if (!baker) throw new Error(`sandbox: block baker ${ctx.baker} is not a baker`);

  if (ctx.cycle > 0 && info.cycle_position < threshold) {
    const commitments = book.getVar<number[]>('commitments', []);
    const due = commitments.filter((l) => calendar.cycleOf(l) === ctx.cycle - 1).slice(0, 2);
    for (const level of due) {
      const updates = new BalanceUpdates(book);
      payReward(updates, 'nonce revelation rewards', baker, book.get(baker.address).balance, SEED_NONCE_TIP);
      out.push(
        anonymous(ctx, {
          kind: 'seed_nonce_revelation',
          level,
          nonce: prng.hex(32),
          metadata: { balance_updates: updates.items },
        }),
      );
    }
    if (due.length)
      book.setVar(
        'commitments',
        commitments.filter((l) => !due.includes(l)),
      );
  }
  if (info.cycle_position === threshold) {
    const updates = new BalanceUpdates(book);
    payReward(updates, 'nonce revelation rewards', baker, book.get(baker.address).balance, VDF_TIP);
    out.push(
      anonymous(ctx, {
        kind: 'vdf_revelation',
        solution: [prng.hex(100), prng.hex(100)],
        metadata: { balance_updates: updates.items },
      }),
    );
  }
  if (ctx.level > 3 && prng.chance(profile.denunciationRate))
    out.push(prng.chance(0.5) ? doubleBaking(ctx) : doubleAttestation(ctx));
  if (ctx.level > 3 && prng.chance(profile.denunciationRate)) {
    const drain = drainDelegate(ctx);
    if (drain) out.push(drain);
  }
  return out;
}

function anonymous(ctx: BlockContext, content: Record<string, unknown>, signature?: string): Record<string, unknown> {
  const group = ctx.group(ctx.newOperationHash().hash, [content], signature ?? '');
  if (!signature) delete group.signature;
  return group;
}

/** A denunciation group (Seoul+ receipt: no balance updates); its slashing waits for a cycle end (Slashing). */
type Misbehaviour = 'block' | 'attestation';

function denunciation(ctx: BlockContext, content: Record<string, unknown>, level: number, kind: Misbehaviour) {
  const offender = ctx.prng.pick(ctx.book.bakers).address;
  const misbehaviour = { level, round: 0, kind };
  const metadata = { punished_delegate: offender, rewarded_delegate: ctx.baker, misbehaviour };
  const group = anonymous(ctx, { ...content, metadata });
  recordDenunciation(ctx.book, { hash: group.hash as string, offender, accuser: ctx.baker, misbehaviourLevel: level });
  return group;
}

/** Two different headers for the same level and round, signed by the same baker. */
function doubleBaking(ctx: BlockContext): Record<string, unknown> {
  const { prng } = ctx;
  const level = ctx.level - 1 - prng.int(2);
  const header = () => ({
    level,
    proto: 1,
    predecessor: b58(prng.bytes(32), PrefixV2.BlockHash),
    timestamp: ctx.timestamp,
    validation_pass: 4,
    operations_hash: b58(prng.bytes(32), PrefixV2.OperationListListHash),
    fitness: ['02', level.toString(16).padStart(8, '0'), '', 'ffffffff', '00000000'],
    context: b58(prng.bytes(32), PrefixV2.ContextHash),
    payload_hash: b58(prng.bytes(32), PrefixV2.ValueHash),
    payload_round: 0,
    proof_of_work_nonce: prng.hex(8),
    liquidity_baking_toggle_vote: 'pass',
    signature: signatureFor(prng, 'tz1'),
  });
  return denunciation(ctx, { kind: 'double_baking_evidence', bh1: header(), bh2: header() }, level, 'block');
}

/** Two conflicting attestations (different payloads) for one slot (Seoul+ denunciation). */
function doubleAttestation(ctx: BlockContext): Record<string, unknown> {
  const { prng } = ctx;
  const level = ctx.level - 1 - prng.int(2);
  const slot = prng.int(ctx.profile.consensusCommitteeSize);
  const branch = b58(prng.bytes(32), PrefixV2.BlockHash);
  const op = () => ({
    branch,
    operations: {
      kind: 'attestation',
      slot,
      level,
      round: 0,
      block_payload_hash: b58(prng.bytes(32), PrefixV2.ValueHash),
    },
    signature: signatureFor(prng, 'tz1'),
  });
  const evidence = { kind: 'double_consensus_operation_evidence', slot, op1: op(), op2: op() };
  return denunciation(ctx, evidence, level, 'attestation');
}

/**
 * A consensus key draining its delegate: the spendable balance goes to the destination, 1% of it to
 * the block's baker.
 */
function drainDelegate(ctx: BlockContext): Record<string, unknown> | undefined {
  const { book, prng } = ctx;
  const candidates = book.bakers.filter(
    (b) => b.consensusKey !== b.address && b.address !== ctx.baker && book.get(b.address).balance > 1_000_000n,
  );
  if (candidates.length === 0) return undefined;
  const baker = prng.pick(candidates);
  const destination = baker.consensusKey;
  const allocated = !book.has(destination);
  if (allocated) book.createKeyless(destination);
  const amount = book.get(baker.address).balance;
  const fee = amount / 100n;
  const updates = new BalanceUpdates(book)
    .transfer(
      (b, c) => b.contract(baker.address, c),
      (b, c) => b.contract(destination, c),
      amount - fee,
    )
    .transfer(
      (b, c) => b.contract(baker.address, c),
      (b, c) => b.contract(ctx.baker, c),
      fee,
    );
  const metadata: Record<string, unknown> = { balance_updates: updates.items };
  if (allocated) metadata.allocated_destination_contract = true;
  return anonymous(
    ctx,
    { kind: 'drain_delegate', consensus_key: baker.consensusKey, delegate: baker.address, destination, metadata },
    signatureFor(prng, baker.consensusKind),
  );
}
