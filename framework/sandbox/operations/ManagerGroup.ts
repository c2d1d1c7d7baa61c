import { BalanceUpdates } from '../BalanceUpdates';
import type { BlockContext } from '../BlockContext';
import { signatureFor } from '../Keys';
import { b58, PrefixV2 } from '../Hashing';

/** Fields of an applied result, without `status`. */
export type ResultFields = Record<string, unknown>;

export interface InternalResult {
  kind: 'transaction' | 'origination' | 'delegation' | 'event';
  /** Fields between `nonce` and `result`, in node order (amount/destination/parameters, …). */
  fields: Record<string, unknown>;
  source: string;
  result: ResultFields;
}

export interface Applied {
  result: ResultFields;
  internal?: InternalResult[];
}

/** Raised by `apply` when the content fails on chain (script rejection, balance too low…). */
export class ContentFailure extends Error {
  constructor(readonly errors: unknown[]) {
    super('operation failed');
  }
}

/** The node's error trace for a contract that hit FAILWITH. */
export function scriptRejected(errorPrefix: string, contract: string, value: unknown): unknown[] {
  return [
    {
      kind: 'temporary',
      id: `${errorPrefix}.michelson_v1.runtime_error`,
      contract_handle: contract,
      contract_code: 'Deprecated',
    },
    { kind: 'temporary', id: `${errorPrefix}.michelson_v1.script_rejected`, location: 210, with: value },
  ];
}

/** One content of a manager operation: its own fields and how applying it changes the ledger. */
export interface ManagerContent {
  kind: string;
  /** Kind-specific fields, in the node's order (after storage_limit). */
  fields: Record<string, unknown>;
  gasLimit: number;
  storageLimit: number;
  apply(): Applied;
  /** Errors to report when the generator makes this content fail; defaults to gas exhaustion. */
  failure?(): unknown[];
}

/**
 * Assembles a manager operation group the way the protocol applies it: all fees first (each content
 * debited in its own metadata), then the contents in order. If one fails, earlier ones are backtracked
 * (their effects undone, their receipts kept) and later ones skipped; fees are kept either way.
 */
export class ManagerGroupBuilder {
  constructor(private readonly ctx: BlockContext) {}

  /** `hash` is given when a content needs the group's hash up front (originated addresses derive from it). */
  build(source: string, contents: ManagerContent[], mayFail = true, hash?: string): Record<string, unknown> {
    const { ctx } = this;
    const { book } = ctx;
    const account = book.get(source);
    ctx.usedSources.add(source);
    const all = !account.revealed && account.kind ? [this.reveal(source), ...contents] : contents;

    const heads = all.map((c) => {
      const fee = BigInt(100 + Math.ceil(c.gasLimit / 10) + ctx.prng.range(150, 400));
      const counter = book.nextCounter(source);
      const fees = new BalanceUpdates(book).contract(source, -fee).accumulator(fee);
      ctx.fees += fee;
      return { fee, counter, fees };
    });

    // Each content may fail, so batches fail more often than single operations; the group fails at the
    // first failing one. A leading reveal does not fail itself: it is backtracked when a later content fails.
    let failAt = -1;
    if (mayFail)
      for (let i = all[0]?.kind === 'reveal' ? 1 : 0; i < all.length && failAt < 0; i++)
        if (ctx.prng.chance(ctx.profile.failureRate)) failAt = i;

    const mark = ctx.journal.mark();
    const outcomes: (
      | { status: 'applied' | 'backtracked'; applied: Applied }
      | { status: 'failed'; errors: unknown[] }
      | { status: 'skipped' }
    )[] = [];
    for (let i = 0; i < all.length; i++) {
      if (failAt >= 0 && i > failAt) {
        outcomes.push({ status: 'skipped' });
        continue;
      }
      if (i === failAt) {
        // Run it anyway so contents whose parameters depend on the state get them; the whole batch
        // is reverted below.
        const errors = all[i].failure?.() ?? this.gasExhausted();
        try {
          all[i].apply();
        } catch (e) {
          if (!(e instanceof ContentFailure)) throw e;
        }
        outcomes.push({ status: 'failed', errors });
        continue;
      }
      try {
        outcomes.push({ status: 'applied', applied: all[i].apply() });
      } catch (e) {
        if (!(e instanceof ContentFailure)) throw e;
        failAt = i;
        outcomes.push({ status: 'failed', errors: e.errors });
      }
    }
    if (failAt >= 0) {
      ctx.journal.revertTo(mark);
      for (const o of outcomes) if (o.status === 'applied') (o as { status: string }).status = 'backtracked';
    }

    const contentJson = all.map((c, i) => {
      const o = outcomes[i];
      const { fee, counter, fees } = heads[i];
      const metadata: Record<string, unknown> = { balance_updates: fees.items };
      if (o.status === 'applied' || o.status === 'backtracked') {
        metadata.operation_result = { status: o.status, ...o.applied.result };
        if (o.applied.internal?.length) {
          metadata.internal_operation_results = o.applied.internal.map((r, nonce) => ({
            kind: r.kind,
            source: r.source,
            nonce,
            ...r.fields,
            result: { status: o.status, ...r.result },
          }));
        }
      } else if (o.status === 'failed') {
        metadata.operation_result = { status: 'failed', errors: o.errors };
      } else {
        metadata.operation_result = { status: 'skipped' };
      }
      return {
        kind: c.kind,
        source,
        fee: String(fee),
        counter: String(counter),
        gas_limit: String(c.gasLimit),
        storage_limit: String(c.storageLimit),
        ...c.fields,
        metadata,
      };
    });

    return ctx.group(hash ?? ctx.newOperationHash().hash, contentJson, signatureFor(ctx.prng, account.kind ?? 'tz1'));
  }

  private reveal(source: string): ManagerContent {
    const { book, prng } = this.ctx;
    const account = book.get(source);
    const fields: Record<string, unknown> = { public_key: account.publicKey };
    // From Seoul on, revealing a BLS key carries a proof of possession.
    if (account.kind === 'tz4') fields.proof = b58(prng.bytes(96), PrefixV2.BLS12_381Signature);
    return {
      kind: 'reveal',
      fields,
      gasLimit: account.kind === 'tz4' ? 3251 : 171,
      storageLimit: 0,
      apply: () => {
        book.set(source, 'revealed', true);
        return { result: { consumed_milligas: String(account.kind === 'tz4' ? 3250000 : 100000) } };
      },
    };
  }

  private gasExhausted(): unknown[] {
    return [{ kind: 'temporary', id: `${this.ctx.identity.errorPrefix}.gas_exhausted.operation` }];
  }
}

/** consumed_milligas for a content with the given gas limit: a little under the limit, as estimators leave slack. */
export function consumedMilligas(ctx: BlockContext, gasLimit: number): string {
  return String(gasLimit * 1000 - ctx.prng.int(Math.max(1, gasLimit * 80)));
}
