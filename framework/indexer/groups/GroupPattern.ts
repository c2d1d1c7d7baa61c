import type { BalanceUpdate, BigMapDiff, NormalizedOperation } from '../../chain';

/**
 * Which contract a step is about. A string is an address; a role matches contracts a plugin watches
 * (see IndexContext.watch and HandlerRegistry.claim); a code hash, an interface (`FA1.2`, `FA2`) or a
 * list of entrypoints matches any contract whose code has them.
 */
export type Destination =
  | string
  | { readonly role: string }
  | { readonly codeHash: string }
  | { readonly interface: string }
  | { readonly entrypoints: readonly string[] };

/** One step of a group pattern: a transaction (default) to, or an origination of, a contract. */
export interface PatternStep<N extends string = string> {
  /** How the handler finds the step's match in `GroupMatch.steps`. */
  readonly name: N;
  readonly type?: 'transaction' | 'origination';
  /** The called (transaction) or originated (origination) contract. */
  readonly destination?: Destination;
  /** Entrypoint(s) called (transactions only). */
  readonly entrypoint?: string | readonly string[];
  /** The group matches without this step; when present it must come in its place in the order. */
  readonly optional?: boolean;
}

export interface GroupPatternOptions {
  /** Match groups that failed, were backtracked or skipped too (default: applied groups only). */
  readonly includeFailed?: boolean;
}

/** One matched operation, decoded against its contract's types when they are known. */
export interface MatchedStep {
  readonly op: NormalizedOperation;
  /** The called or originated contract. */
  readonly contract: string;
  /** Roles under which the contract is watched (empty if none). */
  readonly roles: readonly string[];
  readonly entrypoint?: string;
  /** The argument as plain values (bigint, base58, objects…); raw Micheline when the types are unknown. */
  readonly parameters: unknown;
  /** The contract's storage after the operation, plain like `parameters` (the initial storage of an origination). */
  readonly storage: unknown;
  /** True when parameters and storage were decoded with the contract's types (else they are raw Micheline). */
  readonly decoded: boolean;
  readonly amount: bigint;
  readonly sender?: string;
  readonly bigMapDiffs: readonly BigMapDiff[];
  /** Balance updates of the operation's result. */
  readonly balanceUpdates: readonly BalanceUpdate[];
}

/** A group that matched a pattern: its matched steps and where the group is. */
export interface GroupMatch<N extends string = string> {
  readonly hash: string;
  readonly level: number;
  /** Position of the group: validation list and index in it. */
  readonly opL: number;
  readonly opP: number;
  /** The account that signed the group (the source of its first content). */
  readonly signer?: string;
  /** `applied`, or the status of the group's first content that was not applied. */
  readonly status: string;
  /** Each step's match; undefined for an optional step that was absent. */
  readonly steps: { readonly [K in N]: MatchedStep | undefined };
  /** The matched steps in group order. */
  readonly matched: readonly MatchedStep[];
  /** Every operation row of the group, internal ones included. */
  readonly group: readonly NormalizedOperation[];
}
