import { plainValue, type BigMapDiff } from '../../../../framework';

/**
 * Why: ctez keeps no market totals, only one `ovens` big map entry per oven; the adapter reads the
 * entry the call wrote, typed here because big map updates carry no types. Both mainnet versions:
 * ctez 1 (`create`, `register_deposit`, …; `oven = {tez_balance, ctez_outstanding, address}`, a LIGO
 * record in its default tree layout) and ctez 2 (`create_oven`, `register_oven_deposit`, …; a comb
 * `{tez_balance, ctez_outstanding, address, fee_index}` and the fee indexes of its two half dexes).
 */

const t = (prim: string, annot?: string, args?: unknown[]) => ({
  prim,
  ...(annot ? { annots: [annot] } : {}),
  ...(args ? { args } : {}),
});

/** `oven_handle = {id : nat ; owner : address}` (comb in both versions). */
const HANDLE = t('pair', undefined, [t('nat', '%id'), t('address', '%owner')]);
const OVEN_V1 = t('pair', undefined, [
  t('pair', undefined, [t('address', '%address'), t('nat', '%ctez_outstanding')]),
  t('mutez', '%tez_balance'),
]);
const OVEN_V2 = t('pair', undefined, [
  t('mutez', '%tez_balance'),
  t('pair', undefined, [
    t('nat', '%ctez_outstanding'),
    t('pair', undefined, [t('address', '%address'), t('nat', '%fee_index')]),
  ]),
]);

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

interface Raw {
  ovens?: unknown;
  ctez_fa12_address?: unknown;
  context?: { ctez_fa12_address?: unknown };
  sell_ctez?: { fee_index?: unknown };
  sell_tez?: { fee_index?: unknown };
}

/**
 * The storage when it is a ctez main contract's (ctez 1: `ctez_fa12_address` at the top; ctez 2: under `context`); else
 * undefined.
 */
export function ctezStorage(v: unknown): CtezStorage | undefined {
  const s = (v ?? {}) as Raw;
  if (typeof s.ovens !== 'number') return undefined;
  const ctez = s.context?.ctez_fa12_address ?? s.ctez_fa12_address;
  if (typeof ctez !== 'string') return undefined;
  const [a, b] = [s.sell_ctez?.fee_index, s.sell_tez?.fee_index];
  return { ovens: s.ovens, ctez, ...(typeof a === 'bigint' && typeof b === 'bigint' ? { feeIndex: a * b } : {}) };
}

/** Every oven entry the call wrote, in write order (the last write of a handle wins). */
export function ovensWritten(s: CtezStorage, diffs: readonly BigMapDiff[]): Oven[] {
  const out = new Map<string, Oven>();
  for (const d of diffs) {
    if (d.action !== 'update' || d.bigMapId !== s.ovens || d.key === undefined || d.value === undefined) continue;
    const h = plainValue(HANDLE, d.key) as { id?: unknown; owner?: unknown };
    const o = plainValue(s.feeIndex === undefined ? OVEN_V1 : OVEN_V2, d.value) as {
      tez_balance?: unknown;
      ctez_outstanding?: unknown;
      address?: unknown;
      fee_index?: unknown;
    };
    if (
      typeof h.id !== 'bigint' ||
      typeof h.owner !== 'string' ||
      typeof o.tez_balance !== 'bigint' ||
      typeof o.ctez_outstanding !== 'bigint' ||
      typeof o.address !== 'string'
    )
      continue;
    out.set(`${h.owner}:${h.id}`, {
      id: h.id,
      owner: h.owner,
      tezBalance: o.tez_balance,
      ctezOutstanding: o.ctez_outstanding,
      address: o.address,
      ...(typeof o.fee_index === 'bigint' ? { feeIndex: o.fee_index } : {}),
    });
  }
  return [...out.values()];
}
