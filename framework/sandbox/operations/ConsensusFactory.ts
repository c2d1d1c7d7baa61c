import type { Baker } from '../AccountBook';
import type { ChainIdentity } from '../BlockContext';
import { b58, PrefixV2 } from '../Hashing';
import { signatureFor } from '../Keys';
import { Prng } from '../Prng';
import type { CommitteeMember, Rights } from '../Rights';

export interface ConsensusInput {
  seed: string;
  /** Level of the block being built; its attestations are for `level − 1`. */
  level: number;
  branchSalt: number;
  identity: ChainIdentity;
  bakers: readonly Pick<Baker, 'address' | 'consensusKey' | 'consensusKind'>[];
  rights: Rights;
  attestationRate: number;
  /** The attested block (level − 1): its payload hash and round; undefined at level 1. */
  attested: { payloadHash: string; round: number } | undefined;
  /** Set when the block is a round ≥ 1 re-proposal: preattestations of its own level. */
  preattested: { payloadHash: string; round: number } | undefined;
  /** `branch` of consensus operations (the grandparent block's hash). */
  branch: string;
}

export interface ConsensusOutput {
  /** Rendered operations (empty when built with `render = false`). */
  operations: Record<string, unknown>[];
  /** Raw operation hash digests, in order (what the block's operations_hash covers). */
  digests: Uint8Array[];
  /** Bakers (indices) whose attestation was included. */
  attesters: number[];
  attestationPower: number;
  preattestationPower: number;
}

const NO_BAKING_POWER = { baking_power: null };

/**
 * Pass-0 operations of a block. A pure function of its input: blocks are stored without them and they
 * are re-rendered on demand, which keeps a long mainnet-like chain small in memory.
 * BLS (tz4) consensus keys are aggregated into one `*_aggregate` operation, the others attest one by one
 * (`attestation` or, with a DAL bitset, `attestation_with_dal`), as in Tallinn/Ushuaia blocks.
 */
export function buildConsensusOperations(input: ConsensusInput, render = true): ConsensusOutput {
  const prng = Prng.derive(input.seed, 'consensus', input.level, input.branchSalt);
  const out: ConsensusOutput = {
    operations: [],
    digests: [],
    attesters: [],
    attestationPower: 0,
    preattestationPower: 0,
  };
  if (input.attested) {
    const members = input.rights.committee(input.level - 1).filter(() => prng.chance(input.attestationRate));
    out.attesters = members.map((m) => m.baker);
    out.attestationPower = members.reduce((s, m) => s + m.slots, 0);
    emit(out, input, prng, members, input.level - 1, input.attested, 'attestation', render);
  }
  if (input.preattested) {
    const members = input.rights.committee(input.level).filter(() => prng.chance(input.attestationRate));
    out.preattestationPower = members.reduce((s, m) => s + m.slots, 0);
    emit(out, input, prng, members, input.level, input.preattested, 'preattestation', render);
  }
  return out;
}

function emit(
  out: ConsensusOutput,
  input: ConsensusInput,
  prng: Prng,
  members: CommitteeMember[],
  level: number,
  block: { payloadHash: string; round: number },
  kind: 'attestation' | 'preattestation',
  render: boolean,
): void {
  const individual = members.filter((m) => input.bakers[m.baker].consensusKind !== 'tz4');
  const aggregated = members.filter((m) => input.bakers[m.baker].consensusKind === 'tz4');
  // Building a block only needs the digests; rendering (base58, objects) is left for when it is served.
  // Both paths draw the same random numbers in the same order, so they agree.
  const hash = () => {
    const digest = prng.bytes(32);
    out.digests.push(digest);
    return render ? b58(digest, PrefixV2.OperationHash) : '';
  };
  for (const m of individual) {
    const baker = input.bakers[m.baker];
    const withDal = kind === 'attestation' && prng.chance(0.5);
    const dal = withDal && prng.chance(0.2) ? String(prng.int(2 ** 16)) : '0';
    if (!render) {
      hash();
      prng.bytes(64);
      continue;
    }
    const content: Record<string, unknown> = {
      kind: withDal ? 'attestation_with_dal' : kind,
      slot: m.firstSlot,
      level,
      round: block.round,
      block_payload_hash: block.payloadHash,
    };
    if (withDal) content.dal_attestation = dal;
    content.metadata = {
      delegate: baker.address,
      consensus_power: { slots: m.slots, ...NO_BAKING_POWER },
      consensus_key: baker.consensusKey,
    };
    out.operations.push(op(input, hash(), [content], signatureFor(prng, baker.consensusKind)));
  }
  if (aggregated.length === 0) return;
  if (!render) {
    if (kind === 'attestation') aggregated.forEach(() => prng.chance(0.5));
    hash();
    prng.bytes(96);
    return;
  }
  const committee = aggregated.map((m) =>
    kind === 'attestation'
      ? prng.chance(0.5)
        ? { slot: m.firstSlot, dal_attestation: '0' }
        : { slot: m.firstSlot }
      : m.firstSlot,
  );
  const content = {
    kind: `${kind}s_aggregate`,
    consensus_content: { level, round: block.round, block_payload_hash: block.payloadHash },
    committee,
    metadata: {
      committee: aggregated.map((m) => ({
        delegate: input.bakers[m.baker].address,
        consensus_pkh: input.bakers[m.baker].consensusKey,
        consensus_power: { slots: m.slots, ...NO_BAKING_POWER },
      })),
      total_consensus_power: { slots: aggregated.reduce((s, m) => s + m.slots, 0), ...NO_BAKING_POWER },
    },
  };
  out.operations.push(op(input, hash(), [content], signatureFor(prng, 'tz4')));
}

function op(input: ConsensusInput, hash: string, contents: unknown[], signature: string): Record<string, unknown> {
  return {
    protocol: input.identity.protocol,
    chain_id: input.identity.chainId,
    hash,
    branch: input.branch,
    contents,
    signature,
  };
}
