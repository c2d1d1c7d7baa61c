import type { NormalizedBlock } from '../../chain';
import type { ContractTypes } from '../../michelson/ContractTypes';
import type { Logger } from '../../util/Logger';

/**
 * Why: an archive, or a run started mid-chain, has no node to ask a contract's script, so a contract
 * whose origination was not indexed has no types. A plugin ships the real types of the contract
 * versions it indexes; such a contract is then read with the version its storage (and the call's
 * parameters) fit exactly, or with none: a contract that fits no version is skipped, never read with the
 * wrong types. Where a script is at hand its code hash is compared with the versions' known ones.
 */
export interface KnownCode {
  /** The version in logs (`dexter v1`, `plenty volatile v2`…). */
  readonly name: string;
  readonly types: ContractTypes;
  /** Code hashes (`code_hash`: 8 bytes of sha256 of the binary code) of the builds known to have these types. */
  readonly codeHashes: readonly string[];
  /** Entrypoints that tell a contract of the family (a call of one by a contract no version fits is logged). */
  readonly signature: readonly string[];
}

/** How many addresses that fit no version (or were logged) are remembered. */
const REMEMBERED = 5000;

/** The shipped versions, asked for a contract's types when no script is at hand. */
export class KnownCodes {
  private readonly versions: KnownCode[] = [];
  /** Contracts whose storage fit no version (a storage's type never changes), and contracts already logged. */
  private readonly unfit = new Set<string>();
  private readonly logged = new Set<string>();

  constructor(private readonly log?: Logger) {}

  add(code: KnownCode): void {
    this.versions.push(code);
  }

  /** The types of the version the contract's storage and calls in this block fit, or undefined. */
  fitting(address: string, block: NormalizedBlock): ContractTypes | undefined {
    if (this.versions.length === 0 || this.unfit.has(address)) return undefined;
    const ops = block.operations.filter(
      (o) => o.type === 'transaction' && o.status === 'applied' && o.receiver === address,
    );
    const seen = ops.find((o) => o.storage !== undefined);
    if (!seen) return undefined;
    const version = this.versions.find((v) => ops.every((o) => fits(v.types, o.entrypoint, o.parameters, o.storage)));
    if (version) return version.types;
    remember(this.unfit, address);
    const called = ops.find((o) => this.versions.some((v) => v.signature.includes(o.entrypoint ?? '')));
    if (called) this.once(address, { address, entrypoint: called.entrypoint }, 'fits no known version: skipped');
    return undefined;
  }

  /** Logs (once) a contract whose script has a version's entrypoints but a code hash no version lists. */
  check(address: string, types: ContractTypes): void {
    if (types.codeHash === null || this.versions.some((v) => v.codeHashes.includes(types.codeHash!))) return;
    const entrypoints = [...types.entrypoints].sort().join();
    const like = this.versions.find((v) => [...v.types.entrypoints].sort().join() === entrypoints);
    const detail = like && { address, codeHash: types.codeHash, like: like.name };
    if (detail) this.once(address, detail, 'unknown version: read with its own types');
  }

  private once(address: string, detail: object, msg: string): void {
    if (this.logged.has(address)) return;
    remember(this.logged, address);
    this.log?.info(detail, msg);
  }
}

function fits(types: ContractTypes, entrypoint: string | undefined, parameters: unknown, storage: unknown): boolean {
  try {
    if (storage !== undefined) types.storage(storage, { strict: true });
    return parameters === undefined || types.parameters(entrypoint, parameters, { strict: true }) !== undefined;
  } catch {
    return false;
  }
}

function remember(set: Set<string>, address: string): void {
  if (set.size >= REMEMBERED) set.delete(set.values().next().value!);
  set.add(address);
}
