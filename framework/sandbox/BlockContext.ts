import type { AccountBook } from './AccountBook';
import type { ChainCalendar } from './ChainCalendar';
import type { ContractRegistry } from './contracts/ContractRegistry';
import { b58, PrefixV2 } from './Hashing';
import type { Journal } from './Journal';
import type { SandboxProfile } from './profiles';
import type { Prng } from './Prng';
import type { SandboxExtension } from './SandboxExtension';

export interface ChainIdentity {
  readonly protocol: string;
  readonly chainId: string;
  /** Protocol-specific error id prefix, e.g. `proto.025-PsUshuai`. */
  readonly errorPrefix: string;
}

/** Everything an operation factory needs while one block is being built. */
export class BlockContext {
  /** Fees collected by the block so far (credited to the baker in the block metadata). */
  fees = 0n;
  /** One manager operation per source and block, as the protocol enforces. */
  readonly usedSources = new Set<string>();

  constructor(
    readonly level: number,
    readonly cycle: number,
    readonly prng: Prng,
    readonly book: AccountBook,
    readonly journal: Journal,
    readonly profile: SandboxProfile,
    readonly calendar: ChainCalendar,
    readonly identity: ChainIdentity,
    readonly contracts: ContractRegistry,
    /** Hash of a recent block, used as the `branch` of operations. */
    readonly branch: string,
    readonly baker: string,
    readonly timestamp: string,
    /** The chain seed, for values that must not depend on the branch (proposal hashes). */
    readonly seedLabel: string,
    /** What plugins add to the chain (contracts, traffic, block results). */
    readonly extensions: readonly SandboxExtension[] = [],
  ) {}

  /** A fresh operation hash and its raw digest (the digest also seeds KT1 addresses). */
  newOperationHash(): { hash: string; digest: Uint8Array } {
    const digest = this.prng.bytes(32);
    return { hash: b58(digest, PrefixV2.OperationHash), digest };
  }

  /** An operation group in the node's shape. */
  group(hash: string, contents: unknown[], signature: string): Record<string, unknown> {
    return {
      protocol: this.identity.protocol,
      chain_id: this.identity.chainId,
      hash,
      branch: this.branch,
      contents,
      signature,
    };
  }
}
