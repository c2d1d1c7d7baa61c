import {
  decodeMicheline,
  encodeMicheline,
  entrypointsOf,
  featuresOf,
  hash8,
  interfacesOf,
  isRecord,
  scriptBytes,
  section,
} from '../../framework';

/** What core-chain derives from a contract's code once: hashes, entrypoints, features, interfaces. */
export class ContractScript {
  readonly entrypoints: readonly string[];
  readonly codeBytes?: Buffer;
  readonly codeHash: string | null;
  readonly ifaceHash: string | null;
  readonly features: string;
  readonly interfaces: string;

  private constructor(code: unknown) {
    const parameter = section(code, 'parameter');
    this.entrypoints = entrypointsOf(parameter);
    this.codeBytes = encodeMicheline(code);
    this.codeHash = this.codeBytes ? hash8(this.codeBytes) : null;
    const ifaceBytes = encodeMicheline(parameter);
    this.ifaceHash = ifaceBytes ? hash8(ifaceBytes) : null;
    this.features = featuresOf(code);
    this.interfaces = interfacesOf(parameter).join(',');
  }

  /** From an origination's `script` (`{code, storage}`); undefined when there is no code. */
  static fromScript(script: unknown): ContractScript | undefined {
    const code = isRecord(script) ? script.code : undefined;
    return Array.isArray(code) ? new ContractScript(code) : undefined;
  }

  /** From the `script` column (see `scriptBytes`); undefined when the bytes cannot be read back. */
  static fromBytes(bytes: Buffer): ContractScript | undefined {
    if (bytes.length < 4) return undefined;
    const length = bytes.readUInt32BE(0);
    if (4 + length > bytes.length) return undefined;
    try {
      const code = decodeMicheline(bytes.subarray(4, 4 + length));
      return Array.isArray(code) ? new ContractScript(code) : undefined;
    } catch {
      return undefined;
    }
  }

  /** The `script` column: code and (initial) storage in the node's binary script encoding. */
  scriptBytes(storage: Buffer | undefined): Buffer | null {
    return this.codeBytes && storage ? scriptBytes(this.codeBytes, storage) : null;
  }

  /** Index of a called entrypoint; a call of `default` on a contract without such a leaf targets the root. */
  entrypointId(name: string | undefined): number | null {
    const index = this.entrypoints.indexOf(name ?? 'default');
    if (index >= 0) return index;
    return (name ?? 'default') === 'default' && this.entrypoints.length === 1 ? 0 : null;
  }
}

/** Per-entrypoint call counters: 4-byte big-endian each, in entrypoint order (the `call_stats` column). */
export function bumpCallStats(stats: Buffer, entrypoints: number, id: number): Buffer {
  const out = Buffer.alloc(Math.max(stats.length, entrypoints * 4));
  stats.copy(out);
  if (id * 4 + 4 <= out.length) out.writeUInt32BE(Math.min(out.readUInt32BE(id * 4) + 1, 0xffffffff), id * 4);
  return out;
}
