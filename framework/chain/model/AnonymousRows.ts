import type { BalanceUpdate } from './BalanceUpdate';
import { blindedAddress } from './blindedAddress';
import { asArray, asInt, asString, isRecord } from './jsonRead';
import type { NormalizedOperation } from './NormalizedOperation';
import { creditsTo, emptyRow, type RowPosition } from './operationRow';
import type { KindInfo } from './OperationType';
import type { RowContext } from './RowContext';

/** The denounced delegate: named by Oxford+ receipts, else the owner of the slashed deposits. */
function offenderOf(meta: Record<string, unknown> | undefined, updates: readonly BalanceUpdate[]): string | undefined {
  const named = asString(meta?.punished_delegate) ?? asString(meta?.forbidden_delegate);
  if (named !== undefined) return named;
  return updates.find((u) => u.kind === 'freezer' && u.change < 0n)?.account;
}

/** The rewarded accuser: named by Seoul+ receipts, else the credited account, else the including baker. */
function accuserOf(
  meta: Record<string, unknown> | undefined,
  updates: readonly BalanceUpdate[],
  offender: string | undefined,
  ctx: RowContext,
): string | undefined {
  const named = asString(meta?.rewarded_delegate);
  if (named !== undefined) return named;
  const credited = updates.find(
    (u) => u.change > 0n && (u.kind === 'contract' || u.kind === 'freezer') && u.account !== offender,
  );
  return credited?.account ?? ctx.blockBaker;
}

/** `double_consensus_operation_evidence` (Seoul+) covers both attestations and preattestations. */
function denouncedType(
  content: Record<string, unknown>,
  meta: Record<string, unknown> | undefined,
  fallback: string,
): string {
  const misbehaviour = isRecord(meta?.misbehaviour) ? asString(meta.misbehaviour.kind) : undefined;
  const op1 =
    isRecord(content.op1) && isRecord(content.op1.operations) ? asString(content.op1.operations.kind) : undefined;
  const denounced = misbehaviour ?? op1;
  if (denounced === undefined) return fallback;
  return denounced.startsWith('pre') ? 'double_preendorsement' : 'double_endorsement';
}

function applyDenunciation(row: NormalizedOperation, meta: Record<string, unknown> | undefined, ctx: RowContext): void {
  row.offender = offenderOf(meta, row.balanceUpdates);
  row.accuser = accuserOf(meta, row.balanceUpdates, row.offender, ctx);
  row.sender = row.accuser;
  row.receiver = row.offender;
  const offender = row.offender;
  row.volume = creditsTo(
    row.balanceUpdates,
    (u) => (u.kind === 'contract' || u.kind === 'freezer') && u.account !== offender,
  );
}

/** Rows of voting (pass 1) and anonymous (pass 2) contents: one row each. */
export function anonymousRow(
  content: Record<string, unknown>,
  kind: string,
  info: KindInfo | undefined,
  position: RowPosition,
  ctx: RowContext,
): NormalizedOperation {
  const meta = isRecord(content.metadata) ? content.metadata : undefined;
  if (meta === undefined) ctx.warn('missing_metadata', `no receipt for ${kind}`, { opHash: position.hash, kind });
  const row = emptyRow(content, kind, info?.type ?? kind, position, meta !== undefined);
  row.isUnknownKind = info === undefined;
  row.balanceUpdates = ctx.balanceUpdates(meta?.balance_updates, position.hash);
  switch (kind) {
    case 'proposals':
      row.sender = asString(content.source);
      row.data = asArray(content.proposals)
        .filter((p) => typeof p === 'string')
        .join(',');
      break;
    case 'ballot':
      row.sender = asString(content.source);
      row.data = `${asString(content.proposal) ?? ''},${asString(content.ballot) ?? ''}`;
      break;
    case 'seed_nonce_revelation':
      row.sender = ctx.blockBaker;
      row.data = `${asInt(content.level) ?? ''},${asString(content.nonce) ?? ''}`;
      break;
    case 'vdf_revelation':
      row.sender = ctx.blockBaker;
      row.data = asArray(content.solution)
        .filter((s) => typeof s === 'string')
        .join('');
      break;
    case 'activate_account': {
      const pkh = asString(content.pkh);
      const secret = asString(content.secret) ?? '';
      row.sender = pkh;
      row.data = `${secret},${(pkh && blindedAddress(pkh, secret)) ?? ''}`;
      row.volume = creditsTo(row.balanceUpdates, (u) => u.kind === 'contract');
      break;
    }
    case 'drain_delegate': {
      const destination = asString(content.destination);
      row.sender = asString(content.delegate);
      row.receiver = destination;
      row.volume = creditsTo(row.balanceUpdates, (u) => u.kind === 'contract' && u.contract === destination);
      break;
    }
    case 'double_baking_evidence':
      row.data = { bh1: content.bh1, bh2: content.bh2 };
      applyDenunciation(row, meta, ctx);
      break;
    case 'double_consensus_operation_evidence':
      row.type = denouncedType(content, meta, row.type);
      row.data = { op1: content.op1, op2: content.op2, slot: content.slot };
      applyDenunciation(row, meta, ctx);
      break;
    case 'double_endorsement_evidence':
    case 'double_attestation_evidence':
    case 'double_preendorsement_evidence':
    case 'double_preattestation_evidence':
      row.data = { op1: content.op1, op2: content.op2 };
      applyDenunciation(row, meta, ctx);
      break;
    case 'dal_entrapment_evidence':
      row.sender = ctx.blockBaker;
      break;
    default:
      // Unknown anonymous kinds: keep whatever account field the content names.
      row.sender = asString(content.source) ?? asString(content.delegate) ?? asString(content.pkh);
  }
  return row;
}
