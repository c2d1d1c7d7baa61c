import { asArray, asBigInt, asInt, asString, isRecord, withoutUndefined } from './jsonRead';
import type { ConsensusInfo, NormalizedOperation } from './NormalizedOperation';
import { emptyRow, type RowPosition } from './operationRow';
import type { KindInfo } from './OperationType';
import type { RowContext } from './RowContext';

/** `endorsement_power` / `consensus_power` as a number (≤ Seoul) or `{slots, baking_power}` (Tallinn+). */
function powerOf(value: unknown): { power: number; bakingPower?: bigint } {
  if (isRecord(value)) return { power: asInt(value.slots) ?? 0, bakingPower: asBigInt(value.baking_power) };
  return { power: asInt(value) ?? 0 };
}

/** Emmy endorsements: bit i set for every endorsed slot i (the spec's endorsement `data`). */
function slotBitmask(slots: readonly number[]): bigint {
  let mask = 0n;
  for (const slot of slots) if (slot >= 0) mask |= 1n << BigInt(slot);
  return mask;
}

function numbers(value: unknown): number[] {
  return asArray(value).filter((v): v is number => Number.isSafeInteger(v));
}

function singleConsensus(
  content: Record<string, unknown>,
  kind: string,
  meta: Record<string, unknown> | undefined,
): ConsensusInfo {
  const delegate = asString(meta?.delegate);
  if (kind === 'endorsement_with_slot') {
    // Florence–Hangzhou: the Emmy endorsement is wrapped together with the slot used for its signature check.
    const wrapped =
      isRecord(content.endorsement) && isRecord(content.endorsement.operations) ? content.endorsement.operations : {};
    const slots = numbers(meta?.slots);
    return { level: asInt(wrapped.level), slot: asInt(content.slot), slots, power: slots.length, delegate };
  }
  if (Array.isArray(meta?.slots)) {
    const slots = numbers(meta.slots);
    return { level: asInt(content.level), slots, power: slots.length, delegate };
  }
  const { power, bakingPower } = powerOf(
    meta?.consensus_power ?? meta?.endorsement_power ?? meta?.preendorsement_power,
  );
  return {
    level: asInt(content.level),
    round: asInt(content.round),
    slot: asInt(content.slot),
    power,
    bakingPower,
    delegate,
    consensusKey: asString(meta?.consensus_key),
    dalAttestation: asBigInt(content.dal_attestation),
    blockPayloadHash: asString(content.block_payload_hash),
  };
}

/**
 * Seoul+ BLS aggregates: one row per committee member. The content's `committee` (slots) and the
 * receipt's `committee` (delegates and powers) are parallel lists; the aggregate's own balance
 * updates, if any, go on the first member's row.
 */
function aggregateRows(
  content: Record<string, unknown>,
  kind: string,
  info: KindInfo,
  position: RowPosition,
  meta: Record<string, unknown> | undefined,
  ctx: RowContext,
): NormalizedOperation[] {
  const members = asArray(content.committee);
  const receipts = asArray(meta?.committee);
  const shared = isRecord(content.consensus_content) ? content.consensus_content : {};
  if (meta !== undefined && receipts.length !== members.length) {
    ctx.warn('aggregate_mismatch', `${kind}: ${members.length} committee slots but ${receipts.length} receipts`, {
      opHash: position.hash,
      kind,
    });
  }
  if (members.length === 0) {
    ctx.warn('malformed_content', `${kind} with an empty committee`, { opHash: position.hash, kind });
    const row = emptyRow(content, kind, info.type, position, meta !== undefined);
    row.consensus = withoutUndefined({ level: asInt(shared.level), round: asInt(shared.round), power: 0 });
    row.balanceUpdates = ctx.balanceUpdates(meta?.balance_updates, position.hash);
    return [row];
  }
  return members.map((member, index) => {
    const row = emptyRow(content, kind, info.type, position, meta !== undefined);
    row.memberIndex = index;
    const receipt = isRecord(receipts[index]) ? receipts[index] : {};
    const { power, bakingPower } = powerOf(receipt.consensus_power);
    row.sender = asString(receipt.delegate);
    row.consensus = withoutUndefined<ConsensusInfo>({
      level: asInt(shared.level),
      round: asInt(shared.round),
      slot: isRecord(member) ? asInt(member.slot) : asInt(member),
      power,
      bakingPower,
      delegate: row.sender,
      consensusKey: asString(receipt.consensus_pkh),
      dalAttestation: isRecord(member) ? asBigInt(member.dal_attestation) : undefined,
      blockPayloadHash: asString(shared.block_payload_hash),
    });
    if (index === 0) row.balanceUpdates = ctx.balanceUpdates(meta?.balance_updates, position.hash);
    return row;
  });
}

/** Rows of a consensus content (pass 0): endorsements/attestations of every era and DAL attestations. */
export function consensusRows(
  content: Record<string, unknown>,
  kind: string,
  info: KindInfo,
  position: RowPosition,
  ctx: RowContext,
): NormalizedOperation[] {
  const meta = isRecord(content.metadata) ? content.metadata : undefined;
  if (meta === undefined) ctx.warn('missing_metadata', `no receipt for ${kind}`, { opHash: position.hash, kind });
  if (kind === 'attestations_aggregate' || kind === 'preattestations_aggregate') {
    return aggregateRows(content, kind, info, position, meta, ctx);
  }
  const row = emptyRow(content, kind, info.type, position, meta !== undefined);
  row.balanceUpdates = ctx.balanceUpdates(meta?.balance_updates, position.hash);
  if (info.type === 'dal_attestation') {
    // Kathmandu–Oxford DAL attestations (never enabled on mainnet).
    row.sender = asString(content.attestor) ?? asString(content.endorser) ?? asString(meta?.delegate);
    return [row];
  }
  const consensus = withoutUndefined(singleConsensus(content, kind, meta));
  row.consensus = consensus;
  row.sender = consensus.delegate;
  if (consensus.slots !== undefined) row.data = slotBitmask(consensus.slots);
  return [row];
}
