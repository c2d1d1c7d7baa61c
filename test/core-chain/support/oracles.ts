import { createHash } from 'node:crypto';
import { packDataBytes, type MichelsonData } from '@taquito/michel-codec';

/**
 * Oracles written from the spec, independent of core-chain's code: the op table's label of a kind
 * (the staking pseudo-operations are transactions; the DAL kinds use the original's longer names),
 * and the 8-byte Micheline hash computed with Taquito's binary encoder (PACK without its 0x05 tag).
 */
const STAKING_PSEUDO_OPERATIONS = new Set(['stake', 'unstake', 'finalize_unstake', 'set_delegate_parameters']);

export function specLabel(kind: string): string {
  if (STAKING_PSEUDO_OPERATIONS.has(kind)) return 'transaction';
  if (kind === 'dal_publish') return 'dal_publish_commitment';
  if (kind === 'dal_entrapment') return 'dal_entrapment_evidence';
  return kind;
}

export function taquitoHash8(expr: unknown): string {
  const binary = Buffer.from(packDataBytes(expr as MichelsonData).bytes.slice(2), 'hex');
  return createHash('sha256').update(binary).digest().subarray(0, 8).toString('hex');
}
