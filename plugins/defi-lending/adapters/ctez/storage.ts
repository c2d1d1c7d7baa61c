import type { BigMapDiff, MatchedStep } from '../../../../framework';
import { ctez1Code, ctez2Code, oven1Type, oven2Type, ovenHandleType } from './types.gen';

/**
 * Why: ctez keeps no market totals, only one `ovens` big map entry per oven; the adapter reads the
 * entry the call wrote, with the shipped value types (`types.ts`) because big map updates carry no
 * types. Both mainnet versions: ctez 1 (`create`, `register_deposit`, …; types derived from its source)
 * and ctez 2 (`create_oven`, `register_oven_deposit`, …; the shipped build's types).
 */

/** An oven as the call left it: collateral (mutez), debt (ctez at `feeIndex`), its contract. */
export interface Oven {
  readonly id: bigint;
  readonly owner: string;
  readonly tezBalance: bigint;
  readonly ctezOutstanding: bigint;
  readonly address: string;
  /** ctez 2: the fee index (2^128 fixed point) the outstanding was last brought to; ctez 1 has none. */
  readonly feeIndex?: bigint;
}

/** The ctez main contract's storage fields the adapter reads. */
export interface CtezStorage {
  readonly ovens: number;
  /** The ctez FA1.2 token. */
  readonly ctez: string;
  /** ctez 2: the fee index now (sell_ctez.fee_index × sell_tez.fee_index); undefined on ctez 1. */
  readonly feeIndex?: bigint;
}

/** What an oven call says: the oven (its id, or its whole handle), tez or ctez amounts, and where tez go. */
export interface OvenCall {
  readonly id?: bigint;
  readonly handle?: { readonly id: bigint; readonly owner: string };
  readonly amount?: bigint;
  readonly quantity?: bigint;
  readonly to?: string;
}

/** The storage when all of it fits ctez 2's build or ctez 1's (derived) type; else undefined. */
export function ctezStorage(v: unknown): CtezStorage | undefined {
  const s2 = ctez2Code.storage(v);
  if (s2)
    return typeof s2.ovens === 'number'
      ? {
          ovens: s2.ovens,
          ctez: s2.context.ctez_fa12_address,
          feeIndex: s2.sell_ctez.fee_index * s2.sell_tez.fee_index,
        }
      : undefined;
  const s1 = ctez1Code.storage(v);
  return s1 && typeof s1.ovens === 'number' ? { ovens: s1.ovens, ctez: s1.ctez_fa12_address } : undefined;
}

/** The call's argument, by the version's types (ctez 1's entrypoints have other names); undefined for other calls. */
export function ovenCall(s: CtezStorage, step: MatchedStep): OvenCall | undefined {
  const c = s.feeIndex === undefined ? ctez1Code.call(step) : ctez2Code.call(step);
  switch (c?.entrypoint) {
    case 'create':
    case 'create_oven':
    case 'mint_or_burn':
    case 'register_deposit':
    case 'register_oven_deposit':
    case 'liquidate':
    case 'liquidate_oven':
    case 'withdraw':
    case 'withdraw_from_oven':
      return c.args;
  }
  return undefined;
}

/** Every oven entry the call wrote, in write order (the last write of a handle wins). */
export function ovensWritten(s: CtezStorage, diffs: readonly BigMapDiff[]): Oven[] {
  const out = new Map<string, Oven>();
  for (const d of diffs) {
    if (d.action !== 'update' || d.bigMapId !== s.ovens) continue;
    const h = ovenHandleType.decode(d.key);
    const v2 = s.feeIndex === undefined ? undefined : oven2Type.decode(d.value);
    const o = s.feeIndex === undefined ? oven1Type.decode(d.value) : v2;
    if (!h || !o) continue;
    out.set(`${h.owner}:${h.id}`, {
      id: h.id,
      owner: h.owner,
      tezBalance: o.tez_balance,
      ctezOutstanding: o.ctez_outstanding,
      address: o.address,
      ...(v2 ? { feeIndex: v2.fee_index } : {}),
    });
  }
  return [...out.values()];
}
