import { asString } from './jsonRead';

/** What the normalizer needs to know about the protocol generation of a block or operation. */
export interface ProtocolEra {
  /** Ithaca+ (rounds, the minted/burned receipt model). */
  tenderbake: boolean;
  /** Babylon+ (every KT1 has a script; big_map_diff actions). */
  babylonPlus: boolean;
}

// Mainnet protocols before Babylon (genesis, 001–004) and before Ithaca (005–011), by hash prefix.
const PRE_BABYLON = ['PrihK96n', 'Ps9mPmXa', 'PtCJ7pwo', 'PsYLVpVv', 'PsddFKi3', 'Pt24m4xi'];
const EMMY_BABYLON_PLUS = [
  'PsBABY5H',
  'PsBabyM1',
  'PsCARTHA',
  'PsDELPH1',
  'PtEdoTez',
  'PtEdo2Zk',
  'PsFLoren',
  'PtGRANAD',
  'PtHangzH',
  'PtHangz2',
];

/**
 * Era from the block fitness version ("00" ≤ Athens, "01" Babylon…Hangzhou, "02" Tenderbake), which
 * also works on test networks; falls back to the header shape, then to known mainnet protocol hashes,
 * then to the current era.
 */
export function protocolEra(header: Record<string, unknown> | undefined, protocol: string | undefined): ProtocolEra {
  const version = Array.isArray(header?.fitness) ? asString(header.fitness[0]) : undefined;
  if (version === '00') return { tenderbake: false, babylonPlus: false };
  if (version === '01') return { tenderbake: false, babylonPlus: true };
  if (version === '02') return { tenderbake: true, babylonPlus: true };
  if (header?.payload_round !== undefined) return { tenderbake: true, babylonPlus: true };
  const prefix = protocol?.slice(0, 8);
  if (prefix !== undefined && PRE_BABYLON.includes(prefix)) return { tenderbake: false, babylonPlus: false };
  if (header?.priority !== undefined || (prefix !== undefined && EMMY_BABYLON_PLUS.includes(prefix))) {
    return { tenderbake: false, babylonPlus: true };
  }
  return { tenderbake: true, babylonPlus: true };
}
