import type { Json } from '../../chain/support/Json';

/**
 * What a block does to balances and supply, computed straight from the node JSON with a plain walk
 * that shares no code with core-chain: the balance-update lists that took effect (block, implicit
 * results, content receipts, and results whose status is `applied`).
 */

const BURN_ADDRESSES = ['tz1burnburnburnburnburnburnburjAYjjX', 'tz1Ke2h7sDdakHJQh8WX4Z372du1KChsksyU'];
const big = (v: unknown): bigint => (v === undefined || v === null ? 0n : BigInt(v as string));
const meta = (c: Json): Json | undefined => (typeof c?.metadata === 'object' ? c.metadata : undefined);

export function effectiveLists(block: Json): Json[][] {
  const lists: Json[][] = [block.metadata?.balance_updates ?? []];
  for (const r of block.metadata?.implicit_operations_results ?? []) lists.push(r.balance_updates ?? []);
  for (const group of (block.operations ?? []).flat()) {
    for (const c of group.contents ?? []) {
      const m = meta(c);
      lists.push(m?.balance_updates ?? []);
      if (m?.operation_result?.status === 'applied') lists.push(m.operation_result.balance_updates ?? []);
      for (const i of m?.internal_operation_results ?? [])
        if (i.result?.status === 'applied') lists.push(i.result.balance_updates ?? []);
    }
  }
  return lists;
}

/** Σ of `contract` changes per address: the spendable balance change of every account. */
export function spendableChanges(blocks: readonly Json[]): Map<string, bigint> {
  const out = new Map<string, bigint>();
  for (const b of blocks)
    for (const list of effectiveLists(b))
      for (const u of list) if (u.kind === 'contract') out.set(u.contract, (out.get(u.contract) ?? 0n) + big(u.change));
  return out;
}

/** Ithaca+ receipts name every mint and burn: Σ of `minted` debits and `burned` credits. */
export function mintedAndBurned(block: Json): { minted: bigint; burned: bigint; named: boolean } {
  let minted = 0n;
  let burned = 0n;
  let named = false;
  for (const list of effectiveLists(block))
    for (const u of list) {
      if (u.kind === 'minted') minted -= big(u.change);
      if (u.kind === 'burned') burned += big(u.change);
      if (u.kind === 'minted' || u.kind === 'burned') named = true;
    }
  return { minted, burned, named };
}

function appliedManagerOps(block: Json): Json[] {
  const out: Json[] = [];
  for (const group of (block.operations ?? []).flat())
    for (const c of group.contents ?? []) {
      const m = meta(c);
      if (m?.operation_result?.status === 'applied') out.push(c);
      for (const i of m?.internal_operation_results ?? []) if (i.result?.status === 'applied') out.push(i);
    }
  return out;
}

/**
 * Emmy receipts only show net effects: a list that credits more than it debits minted, the reverse
 * burned. Activations credit fundraiser funds that exist since genesis: not minted.
 */
export function netIssuance(block: Json): { minted: bigint; burned: bigint } {
  let minted = 0n;
  let burned = 0n;
  const activations = new Set<Json[]>();
  for (const group of (block.operations ?? []).flat())
    for (const c of group.contents ?? [])
      if (c.kind === 'activate_account' && meta(c)?.balance_updates) activations.add(meta(c)!.balance_updates);
  for (const list of effectiveLists(block)) {
    if (activations.has(list)) continue;
    const net = list.reduce((s: bigint, u: Json) => s + big(u.change), 0n);
    if (net > 0n) minted += net;
    else burned -= net;
  }
  return { minted, burned };
}

/** Tez transferred to a burn address by applied transactions. */
export function explicitBurns(block: Json): bigint {
  return appliedManagerOps(block)
    .filter((o) => o.kind === 'transaction' && BURN_ADDRESSES.includes(o.destination))
    .reduce((s, o) => s + big(o.amount), 0n);
}

/** Endorsing power this block's (pre-aggregate or aggregate) endorsements give to the previous level. */
export function endorsedPower(block: Json): number {
  const level = block.header.level - 1;
  let power = 0;
  for (const c of (block.operations?.[0] ?? []).flatMap((g: Json) => g.contents ?? [])) {
    const m = meta(c) ?? {};
    if (c.kind === 'attestations_aggregate') {
      if (c.consensus_content?.level === level)
        for (const member of m.committee ?? [])
          power += Number(member.consensus_power?.slots ?? member.consensus_power ?? 0);
      continue;
    }
    if (
      !['endorsement', 'endorsement_with_slot', 'attestation', 'attestation_with_dal', 'endorsement_with_dal'].includes(
        c.kind,
      )
    )
      continue;
    const endorsed = c.kind === 'endorsement_with_slot' ? c.endorsement?.operations?.level : c.level;
    if (endorsed !== level) continue;
    const p = m.slots?.length ?? m.endorsement_power ?? m.consensus_power;
    power += Number(typeof p === 'object' ? p.slots : (p ?? 0));
  }
  return power;
}
