import { b58DecodeAndCheckPrefix, PrefixV2 } from '@taquito/utils';
import { BaseColumnType, ValueError } from './ColumnType';

/** Every account kind the chain has known: implicit, originated, blinded, rollups. */
const ADDRESS_PREFIXES = [
  PrefixV2.Ed25519PublicKeyHash,
  PrefixV2.Secp256k1PublicKeyHash,
  PrefixV2.P256PublicKeyHash,
  PrefixV2.BLS12_381PublicKeyHash,
  PrefixV2.ContractHash,
  PrefixV2.BlindedPublicKeyHash,
  PrefixV2.TXRollupAddress,
  PrefixV2.SmartRollupHash,
  PrefixV2.ZkRollupHash,
];

export function isValidAddress(value: string): boolean {
  try {
    b58DecodeAndCheckPrefix(value, ADDRESS_PREFIXES);
    return true;
  } catch {
    return false;
  }
}

export class AddressType extends BaseColumnType {
  readonly name = 'address';
  readonly sqlType = 'text';
  override readonly collation = 'C';

  parse(arg: string): string {
    if (!isValidAddress(arg)) throw new ValueError(`invalid address '${arg}'`);
    return arg;
  }
  override schema(): Record<string, unknown> {
    return { type: 'string', description: 'base58check account address (tz1…, KT1…, sr1…)' };
  }
}
