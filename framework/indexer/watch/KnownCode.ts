import type { NormalizedBlock } from '../../chain';
import type { ContractTypes } from '../../michelson/ContractTypes';
import { entrypointTypes, plainTsType } from '../../michelson/PlainTypes';
import type { Logger } from '../../util/Logger';
import type { UndecodableValues } from '../UndecodableValues';

/**
 * Why: an archive, or a run started mid-chain, has no node to ask a contract's script, so a contract
 * whose origination was not indexed has no types. A plugin ships the real types of the contract
 * versions it indexes; such a contract is then read with the version its storage (and the call's
 * parameters) fit exactly, or with none: a contract that fits no version is skipped, never read with the
 * wrong types. Where a script is at hand its code hash is compared with the versions' known ones: an unknown
 * build of a family whose builds are all listed is recorded (`checkBuild`).
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

  constructor(
    private readonly log?: Logger,
    private readonly undecodable?: UndecodableValues,
  ) {}

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
    const detail = { address, entrypoint: called?.entrypoint };
    if (called) this.once(address, () => this.log?.info(detail, 'fits no known version: skipped'));
    return undefined;
  }

  /**
   * Records (once) a script at hand that is an unknown build of a shipped family: it carries a version's signature
   * (the longest ones it carries), every such version lists its code hashes and none lists the script's. It is
   * undecodable as that version (`unknown_code_version`: a warning and the metric), with `decodes` telling whether
   * its calls and storage still decode to the version's types (`sameDecoding`). It keeps its own types: a handler
   * reads it through the version's generated readers (`types.gen.ts`), which refuse a value of another shape, so
   * such a pool is skipped, never misread.
   */
  checkBuild(address: string, types: ContractTypes): void {
    if (types.codeHash === null) return;
    const carried = this.versions.filter((v) => v.signature.every((e) => types.entrypoints.includes(e)));
    // The versions it is most like: a fork's signature is part of its original's (LB's of Dexter's).
    const family = carried.filter((v) => !carried.some((w) => w !== v && within(v.signature, w.signature)));
    const listed = (v: KnownCode): boolean => v.codeHashes.length === 0 || v.codeHashes.includes(types.codeHash!);
    if (family.length === 0 || family.some(listed)) return;
    const decodes = family.some((v) => sameDecoding(v.types, types));
    const detail = { address, codeHash: types.codeHash, like: family.map((v) => v.name).join(', '), decodes };
    this.once(address, () =>
      this.undecodable
        ? this.undecodable.record('contracts', 'unknown_code_version', detail)
        : this.log?.warn(detail, 'unknown build of a known contract'),
    );
  }

  private once(address: string, report: () => void): void {
    if (this.logged.has(address)) return;
    remember(this.logged, address);
    report();
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

/**
 * Whether a script's calls and storage decode as a version's do (`types.gen.ts`): the same TypeScript type for the
 * storage and for the argument of each of the version's entrypoints (annotations that name nothing may differ).
 */
function sameDecoding(version: ContractTypes, script: ContractTypes): boolean {
  if (plainTsType(version.storageType) !== plainTsType(script.storageType)) return false;
  const own = entrypointTypes(script.parameterType);
  return [...entrypointTypes(version.parameterType)].every(
    ([e, t]) => own.has(e) && plainTsType(own.get(e)) === plainTsType(t),
  );
}

/** Whether `a` is a strict part of `b`. */
function within(a: readonly string[], b: readonly string[]): boolean {
  return a.length < b.length && a.every((e) => b.includes(e));
}

function remember(set: Set<string>, address: string): void {
  if (set.size >= REMEMBERED) set.delete(set.values().next().value!);
  set.add(address);
}
