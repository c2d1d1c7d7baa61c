import { member, type BigMapDiff, type MatchedStep } from '../../../../framework';
import { ctez2Code, oven1Type, oven2Type, ovenHandleType } from './types.gen';

/**
 * Why: ctez keeps no market totals, only one `ovens` big map entry per oven; the adapter reads the
 * entry the call wrote, with the shipped value types (`types.ts`) because big map updates carry no
 * types. Both mainnet versions: ctez 1 (`create`, `register_deposit`, …; its oven record in LIGO's tree
 * layout) and ctez 2 (`create_oven`, `register_oven_deposit`, …; the shipped build's types).
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

/**
 * The storage when it is a ctez main contract's: all of it fits ctez 2's build, or (ctez 1, decoded with its own
 * types) it has an `ovens` big map and `ctez_fa12_address` at the top; else undefined.
 */
export function ctezStorage(v: unknown): CtezStorage | undefined {
  const s = ctez2Code.storage(v);
  if (s)
    return typeof s.ovens === 'number'
      ? { ovens: s.ovens, ctez: s.context.ctez_fa12_address, feeIndex: s.sell_ctez.fee_index * s.sell_tez.fee_index }
      : undefined;
  const [ovens, ctez] = [member(v, 'ovens'), member(v, 'ctez_fa12_address')];
  return typeof ovens === 'number' && typeof ctez === 'string' ? { ovens, ctez } : undefined;
}

/** The call's argument: ctez 2's by its build's types, ctez 1's by field name (its own types decoded it). */
export function ovenCall(step: MatchedStep): OvenCall {
  const c = ctez2Code.call(step);
  switch (c?.entrypoint) {
    case 'create_oven':
    case 'mint_or_burn':
    case 'register_oven_deposit':
    case 'liquidate_oven':
    case 'withdraw_from_oven':
      return c.args;
  }
  const p = step.parameters;
  const big = (k: string) => {
    const v = member(p, k);
    return typeof v === 'bigint' ? v : undefined;
  };
  const to = member(p, 'to');
  return {
    id: big('id'),
    handle: ovenHandleType.read(member(p, 'handle')),
    amount: big('amount'),
    quantity: big('quantity'),
    to: typeof to === 'string' ? to : undefined,
  };
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
