import { createHash } from 'node:crypto';
import { packDataBytes, type MichelsonData } from '@taquito/michel-codec';

/**
 * Oracles written from the spec, independent of core-chain's code: the op table's label of a kind
 * (a type the TzPro SDK knows: the staking pseudo-operations are transactions, the DAL kinds rollup
 * transactions as in the original, the companion key update a consensus key update), and the 8-byte
 * Micheline hash computed with Taquito's binary encoder (PACK without its 0x05 tag).
 */
const SPEC_LABELS: Readonly<Record<string, string>> = {
  stake: 'transaction',
  unstake: 'transaction',
  finalize_unstake: 'transaction',
  set_delegate_parameters: 'transaction',
  dal_publish: 'rollup_transaction',
  dal_attestation: 'rollup_transaction',
  dal_entrapment: 'rollup_transaction',
  update_companion_key: 'update_consensus_key',
};

export function specLabel(kind: string): string {
  return SPEC_LABELS[kind] ?? kind;
}

export function taquitoHash8(expr: unknown): string {
  const binary = Buffer.from(packDataBytes(expr as MichelsonData).bytes.slice(2), 'hex');
  return createHash('sha256').update(binary).digest().subarray(0, 8).toString('hex');
}
