import { decodeMicheline, section } from './Michelson';

/** Hex binary Micheline back to JSON; undefined when the bytes do not decode. */
export function michelineFromHex(hex: string | null | undefined): unknown {
  if (typeof hex !== 'string') return undefined;
  try {
    return decodeMicheline(Buffer.from(hex, 'hex'));
  } catch {
    return undefined;
  }
}

/** A contract's code and origination storage, read back from the contract table's binary `script`. */
export class ContractCode {
  private constructor(
    readonly code: unknown[],
    readonly initialStorage: unknown,
  ) {}

  /** From the `script` column (4-byte length + code, 4-byte length + storage); undefined without a readable script. */
  static fromScriptHex(hex: string | null | undefined): ContractCode | undefined {
    if (typeof hex !== 'string') return undefined;
    const bytes = Buffer.from(hex, 'hex');
    if (bytes.length < 8) return undefined;
    const codeLength = bytes.readUInt32BE(0);
    if (8 + codeLength > bytes.length) return undefined;
    const storageLength = bytes.readUInt32BE(4 + codeLength);
    if (8 + codeLength + storageLength !== bytes.length) return undefined;
    try {
      const code = decodeMicheline(bytes.subarray(4, 4 + codeLength));
      const storage = decodeMicheline(bytes.subarray(8 + codeLength));
      return Array.isArray(code) ? new ContractCode(code, storage) : undefined;
    } catch {
      return undefined;
    }
  }

  get parameterType(): unknown {
    return section(this.code, 'parameter');
  }

  get storageType(): unknown {
    return section(this.code, 'storage');
  }

  /** The script as the node shows it: `{code, storage}` with the origination storage. */
  get script(): { code: unknown[]; storage: unknown } {
    return { code: this.code, storage: this.initialStorage };
  }
}
