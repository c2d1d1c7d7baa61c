import { b58DecodeAndCheckPrefix, PrefixV2 } from '@taquito/utils';
import { BaseColumnType, ValueError } from './ColumnType';

/** Base58check hashes; the kind fixes the accepted prefixes (`hash(block)`), plain `hash` takes any. */
const KINDS: Record<string, PrefixV2[]> = {
  block: [PrefixV2.BlockHash],
  operation: [PrefixV2.OperationHash],
  protocol: [PrefixV2.ProtocolHash],
  expr: [PrefixV2.ScriptExpr],
  chain: [PrefixV2.ChainID],
  context: [PrefixV2.ContextHash],
  nonce: [PrefixV2.CycleNonce],
  pubkey: [PrefixV2.Ed25519PublicKey, PrefixV2.Secp256k1PublicKey, PrefixV2.P256PublicKey, PrefixV2.BLS12_381PublicKey],
};
const ANY = Object.values(KINDS).flat();

export class HashType extends BaseColumnType {
  readonly name: string;
  readonly sqlType = 'text';
  override readonly collation = 'C';
  private readonly prefixes: PrefixV2[];

  constructor(readonly kind?: string) {
    super();
    if (kind !== undefined && !KINDS[kind])
      throw new Error(`unknown hash kind '${kind}' (known: ${Object.keys(KINDS).join(', ')})`);
    this.name = kind ? `hash(${kind})` : 'hash';
    this.prefixes = kind ? KINDS[kind] : ANY;
  }

  parse(arg: string): string {
    try {
      b58DecodeAndCheckPrefix(arg, this.prefixes);
      return arg;
    } catch {
      throw new ValueError(`'${arg}' is not a valid ${this.kind ?? ''}${this.kind ? ' ' : ''}hash`);
    }
  }
  override schema(): Record<string, unknown> {
    return { type: 'string', description: this.kind ? `base58check ${this.kind} hash` : 'base58check hash' };
  }
}
