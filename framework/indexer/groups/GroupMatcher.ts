import type { NormalizedBlock, NormalizedOperation } from '../../chain';
import { ContractTypes } from '../../michelson/ContractTypes';
import { Destination, GroupMatch, GroupPatternOptions, MatchedStep, PatternStep } from './GroupPattern';

/** What the matcher knows about contracts: the roles they are watched under and their types. */
export interface ContractFacts {
  roles(address: string): readonly string[];
  types(address: string): ContractTypes | undefined;
}

/** Steps match transactions and originations only: a group without any (an attestation) matches no pattern. */
export function isStepCandidate(op: NormalizedOperation): boolean {
  return op.type === 'transaction' || op.type === 'origination';
}

/**
 * Matches a pattern's ordered steps against a group's transactions and originations, internal ones
 * included, like a subsequence: other operations may come between steps, optional steps may be
 * absent, and one group can hold several non-overlapping matches (a batch of swaps).
 */
export class GroupMatcher<N extends string> {
  /** Steps that need the contracts' code (hash, interface, entrypoints) to match. */
  readonly needsTypes: boolean;
  private readonly required: readonly PatternStep<N>[];

  constructor(
    readonly steps: readonly PatternStep<N>[],
    readonly options: GroupPatternOptions = {},
  ) {
    if (steps.length === 0 || steps.every((s) => s.optional))
      throw new Error('a group pattern needs at least one required step');
    const names = new Set(steps.map((s) => s.name));
    if (names.size !== steps.length) throw new Error('the steps of a group pattern need distinct names');
    this.needsTypes = steps.some((s) => typeof s.destination === 'object' && !('role' in s.destination));
    this.required = steps.filter((s) => !s.optional);
  }

  /**
   * Whether every required step has an operation of its kind and entrypoint somewhere in the group,
   * whatever contract it calls: what any match needs, known without roles or code. Why: most groups
   * (tez and token transfers) fail it, and are then not matched, nor their contracts' code looked up.
   */
  mayMatch(group: readonly NormalizedOperation[]): boolean {
    return this.required.every((spec) => group.some((op) => kindMatches(spec, op)));
  }

  /** The contracts whose roles or types the matcher may look at in this group. */
  contracts(group: readonly NormalizedOperation[]): string[] {
    return [...new Set(group.map(contractOf).filter((a): a is string => a !== undefined))];
  }

  /** Every match in the group, each as the operation per step (undefined for an absent optional step). */
  match(group: readonly NormalizedOperation[], facts: ContractFacts, level: number): GroupMatch<N>[] {
    const status = group.find((o) => o.status !== 'applied')?.status ?? 'applied';
    if (status !== 'applied' && !this.options.includeFailed) return [];
    const candidates = group.filter(isStepCandidate);
    const out: GroupMatch<N>[] = [];
    // Searches from (step, position) that found nothing: the answer does not change, so each is tried
    // once: a long group costs at most steps × positions² checks, not positions^steps.
    const dead = new Set<number>();
    let from = 0;
    for (;;) {
      const found = this.search(candidates, facts, dead, 0, from);
      if (!found) return out;
      out.push(this.result(group, candidates, level, status, found, facts));
      from = Math.max(...found.filter((i) => i >= 0)) + 1;
    }
  }

  /** Indices (into candidates) per step from `step` on, -1 for a skipped optional step; undefined if no match. */
  private search(
    ops: readonly NormalizedOperation[],
    facts: ContractFacts,
    dead: Set<number>,
    step: number,
    from: number,
  ): number[] | undefined {
    if (step === this.steps.length) return [];
    const key = step * (ops.length + 1) + from;
    if (dead.has(key)) return undefined;
    const spec = this.steps[step];
    for (let i = from; i < ops.length; i++) {
      if (!stepMatches(spec, ops[i], facts)) continue;
      const rest = this.search(ops, facts, dead, step + 1, i + 1);
      if (rest) return [i, ...rest];
    }
    const skipped = spec.optional ? this.search(ops, facts, dead, step + 1, from) : undefined;
    if (skipped) return [-1, ...skipped];
    dead.add(key);
    return undefined;
  }

  private result(
    group: readonly NormalizedOperation[],
    candidates: readonly NormalizedOperation[],
    level: number,
    status: string,
    found: number[],
    facts: ContractFacts,
  ): GroupMatch<N> {
    const steps = {} as Record<N, MatchedStep | undefined>;
    const matched: MatchedStep[] = [];
    this.steps.forEach((spec, i) => {
      const op = found[i] >= 0 ? candidates[found[i]] : undefined;
      const step = op && matchedStep(op, facts);
      steps[spec.name] = step;
      if (step) matched.push(step);
    });
    const first = group[0];
    return {
      hash: first.hash,
      level,
      opL: first.opL,
      opP: first.opP,
      signer: first.source ?? first.sender,
      status,
      steps,
      matched,
      group,
    };
  }
}

/** The called contract of a transaction, the new contract of an origination. */
function contractOf(op: NormalizedOperation): string | undefined {
  return op.type === 'origination' ? op.originatedContracts[0] : op.type === 'transaction' ? op.receiver : undefined;
}

/** The step's operation kind and entrypoint, its destination left aside. */
function kindMatches(spec: PatternStep, op: NormalizedOperation): boolean {
  if (op.type !== (spec.type ?? 'transaction')) return false;
  if (spec.entrypoint === undefined) return true;
  const called = op.entrypoint ?? 'default';
  return typeof spec.entrypoint === 'string' ? spec.entrypoint === called : spec.entrypoint.includes(called);
}

function stepMatches(spec: PatternStep, op: NormalizedOperation, facts: ContractFacts): boolean {
  if (!kindMatches(spec, op)) return false;
  const contract = contractOf(op);
  return (
    spec.destination === undefined || (contract !== undefined && destinationMatches(spec.destination, contract, facts))
  );
}

function destinationMatches(d: Destination, contract: string, facts: ContractFacts): boolean {
  if (typeof d === 'string') return d === contract;
  if ('role' in d) return facts.roles(contract).includes(d.role);
  const types = facts.types(contract);
  return types !== undefined && codeMatches(d, types);
}

/** Whether a contract's code has the hash, the interface or the entrypoints asked for. */
export function codeMatches(
  d: Exclude<Destination, string | { readonly role: string }>,
  types: ContractTypes,
): boolean {
  if ('codeHash' in d) return types.codeHash === d.codeHash;
  if ('interface' in d) return types.interfaces.includes(d.interface);
  return d.entrypoints.every((e) => types.entrypoints.includes(e));
}

function matchedStep(op: NormalizedOperation, facts: ContractFacts): MatchedStep {
  const contract = contractOf(op)!;
  const types = facts.types(contract);
  const storage = op.storage ?? (op.script as { storage?: unknown } | undefined)?.storage;
  const parameters = types && op.parameters !== undefined ? types.parameters(op.entrypoint, op.parameters) : undefined;
  return {
    op,
    contract,
    roles: facts.roles(contract),
    entrypoint: op.entrypoint,
    parameters: parameters ?? op.parameters,
    storage: types && storage !== undefined ? types.storage(storage) : storage,
    decoded: types !== undefined,
    amount: op.volume,
    sender: op.sender,
    bigMapDiffs: op.bigMapDiffs,
    balanceUpdates: op.resultBalanceUpdates,
  };
}

/** A block's operation groups (rows sharing list, position and hash), implicit results left out. */
export function operationGroups(block: NormalizedBlock): NormalizedOperation[][] {
  const groups: NormalizedOperation[][] = [];
  let current: NormalizedOperation[] | undefined;
  for (const op of block.operations) {
    if (op.hash === '' || op.opL < 0) continue;
    if (!current || current[0].opL !== op.opL || current[0].opP !== op.opP) groups.push((current = []));
    current.push(op);
  }
  return groups;
}
