import { type GroupMatch, type MatchedStep, type NormalizedOperation, TypedValue } from '../index';

const t = (prim: string, annot: string) => ({ prim, annots: [annot] });
/** TZIP-7 (FA1.2) and TZIP-12 (FA2) `transfer` argument types, to read the token moves a pool call made. */
const FA12_TRANSFER = {
  prim: 'pair',
  args: [t('address', '%from'), { prim: 'pair', args: [t('address', '%to'), t('nat', '%value')] }],
};
const FA2_TRANSFER = {
  prim: 'list',
  args: [
    {
      prim: 'pair',
      args: [
        t('address', '%from_'),
        {
          prim: 'list',
          annots: ['%txs'],
          args: [
            {
              prim: 'pair',
              args: [t('address', '%to_'), { prim: 'pair', args: [t('nat', '%token_id'), t('nat', '%amount')] }],
            },
          ],
        },
      ],
    },
  ],
};
/** A decoded FA1.2 `transfer` argument, and its checked reader (plain values or raw Micheline). */
export interface Fa12TransferArgs {
  from: string;
  to: string;
  value: bigint;
}
export const fa12TransferType = new TypedValue<Fa12TransferArgs>(FA12_TRANSFER);
/** A decoded FA2 `transfer` argument, and its checked reader. */
export type Fa2TransferArgs = Array<{ from_: string; txs: Array<{ to_: string; token_id: bigint; amount: bigint }> }>;
export const fa2TransferType = new TypedValue<Fa2TransferArgs>(FA2_TRANSFER);
/** The LP token calls that mint or burn shares: Dexter-style `mintOrBurn (quantity, target)`… */
const mintOrBurnType = new TypedValue<{ quantity: bigint; target: string }>({
  prim: 'pair',
  args: [t('int', '%quantity'), t('address', '%target')],
});
/** …and Plenty-style `mint`/`burn (address, value)`. */
const mintType = new TypedValue<{ address: string; value: bigint }>({
  prim: 'pair',
  args: [t('address', '%address'), t('nat', '%value')],
});

/**
 * An FA1.2 `transfer` argument (raw Micheline) as (from, to, value), read with TZIP-7's type whatever the token's
 * annotations.
 */
export function fa12Transfer(raw: unknown): Fa12TransferArgs | undefined {
  return fa12TransferType.decode(raw);
}

/** The moves of a TZIP-12 `transfer` parameter sent to `token`; empty when it is not one. */
export function fa2Transfers(token: string, raw: unknown): TokenMove[] {
  return (fa2TransferType.decode(raw) ?? []).flatMap((batch) =>
    batch.txs.map((tx) => ({ token, tokenId: tx.token_id, from: batch.from_, to: tx.to_, amount: tx.amount })),
  );
}

/** An asset a pool pays out: a token (its contract and id, 0 for FA1.2) or tez. */
export type PaidAsset = { readonly token: string; readonly tokenId: bigint } | 'tez';

export interface TokenMove {
  token: string;
  tokenId: bigint;
  from: string;
  to: string;
  amount: bigint;
}

/** The FA1.2 and FA2 `transfer`s among `ops`, of any token contract. */
function tokenMoves(ops: readonly NormalizedOperation[]): TokenMove[] {
  const out: TokenMove[] = [];
  for (const o of ops) {
    if (o.entrypoint !== 'transfer' || !o.receiver) continue;
    const fa12 = fa12Transfer(o.parameters);
    if (fa12) out.push({ token: o.receiver, tokenId: 0n, from: fa12.from, to: fa12.to, amount: fa12.value });
    else out.push(...fa2Transfers(o.receiver, o.parameters));
  }
  return out;
}

export interface Payment {
  to: string;
  amount: bigint;
}

/** The payments of `asset` by `payer` among `ops`: tez as plain transactions, tokens as transfers. */
function payments(ops: readonly NormalizedOperation[], payer: string, asset: PaidAsset): Payment[] {
  if (asset !== 'tez') {
    return tokenMoves(ops).filter((m) => m.from === payer && m.token === asset.token && m.tokenId === asset.tokenId);
  }
  const paid = ops.filter((o) => o.sender === payer && o.type === 'transaction' && !o.entrypoint && o.volume > 0n);
  return paid.filter((o) => o.receiver).map((o) => ({ to: o.receiver!, amount: o.volume }));
}

/**
 * What one pool call did, read from the group: the internal operations the pool itself emitted after
 * the call (up to its next call), as token transfers and tez payments. Shared by adapters so amounts
 * come from what moved, not from reserve arithmetic.
 */
export class PoolCall {
  readonly emitted: NormalizedOperation[] = [];
  /** Every operation of that span, whoever sent it (what the contracts the pool called did in turn). */
  readonly span: NormalizedOperation[] = [];

  /** `step` is a matched step, or any call of the pool in the group (a swap's opening call, say). */
  constructor(
    readonly match: GroupMatch,
    readonly step: Pick<MatchedStep, 'op' | 'contract' | 'sender'>,
  ) {
    for (const o of match.group) {
      if (o.opC !== step.op.opC || o.opI <= step.op.opI) continue;
      if (o.receiver === step.contract && o.entrypoint) break;
      this.span.push(o);
      if (o.sender === step.contract) this.emitted.push(o);
    }
  }

  /** Token transfers the pool made (FA1.2 or FA2), of any token contract. */
  tokenMoves(): TokenMove[] {
    return tokenMoves(this.emitted);
  }

  /**
   * The operations of the call's content before it, back to the pool's previous call (other than a
   * `transfer` of its own): what was done to the pool just before it was called. Uniswap-v2 pairs
   * (Spicy) are paid by the router before it calls them, so their input is here, not in `emitted`.
   */
  preceding(): NormalizedOperation[] {
    const out: NormalizedOperation[] = [];
    for (const o of this.match.group) {
      if (o.opC !== this.step.op.opC || o.opI >= this.step.op.opI) continue;
      if (o.receiver === this.step.contract && o.entrypoint && o.entrypoint !== 'transfer') out.length = 0;
      else out.push(o);
    }
    return out;
  }

  /** Tokens of one token paid into the pool by others just before its call (`preceding`). */
  paidIn(token: string, tokenId: bigint): bigint {
    return tokenMoves(this.preceding())
      .filter((m) => m.token === token && m.tokenId === tokenId && m.to === this.step.contract)
      .reduce((s, m) => s + m.amount, 0n);
  }

  /** Sum of token moves of one token into (`to` = the pool) or out of the pool. */
  tokens(token: string, tokenId: bigint, direction: 'in' | 'out'): bigint {
    const pool = this.step.contract;
    return this.tokenMoves()
      .filter(
        (m) => m.token === token && m.tokenId === tokenId && (direction === 'in' ? m.to === pool : m.from === pool),
      )
      .reduce((s, m) => s + m.amount, 0n);
  }

  /** Net LP shares the pool minted (positive) or burned (negative) through its LP token contract `lp`. */
  shares(lp: string): bigint {
    let net = 0n;
    for (const o of this.emitted) {
      if (o.receiver !== lp) continue;
      if (o.entrypoint === 'mintOrBurn') {
        net += mintOrBurnType.decode(o.parameters)?.quantity ?? 0n;
      } else if (o.entrypoint === 'mint' || o.entrypoint === 'burn') {
        const value = mintType.decode(o.parameters)?.value ?? 0n;
        net += o.entrypoint === 'mint' ? value : -value;
      }
    }
    return net;
  }

  /** Tez the pool paid out (plain transactions without entrypoint) to accounts `to` accepts. */
  tez(to: (address: string) => boolean): bigint {
    return this.emitted
      .filter((o) => o.type === 'transaction' && !o.entrypoint && o.volume > 0n && to(o.receiver ?? ''))
      .reduce((n, o) => n + o.volume, 0n);
  }

  /** Tez that `payer` (a vault the pool ordered to pay, e.g. QuipuSwap v2's buckets) paid to `to` during the call. */
  tezPaidBy(payer: string, to: string): bigint {
    return this.span
      .filter((o) => o.sender === payer && o.type === 'transaction' && !o.entrypoint && o.receiver === to)
      .reduce((n, o) => n + o.volume, 0n);
  }

  /** Tez the pool sent along with calls of `entrypoint` to `to` (a hop into another pool). */
  tezWith(to: string, entrypoint: string): bigint {
    return this.emitted
      .filter((o) => o.type === 'transaction' && o.receiver === to && o.entrypoint === entrypoint)
      .reduce((n, o) => n + o.volume, 0n);
  }

  /**
   * The receiver of a pool's output, one rule for every adapter: the account that got it. That is `to`,
   * the account the pool paid, unless `to` is the router that called the pool: then the router passed
   * the output on in the same group, and the receiver is whom it paid `asset` to after the pool's call
   * (the user when it paid the user, else the largest payment), or the user when that is not seen.
   */
  receiver(to: string, asset?: PaidAsset): string {
    const { sender, router } = this.parties();
    if (router === undefined || to !== router) return to;
    const onward = asset ? this.paidOnBy(router, asset) : [];
    if (onward.length === 0 || onward.some((p) => p.to === sender)) return sender;
    return onward.reduce((a, b) => (b.amount > a.amount ? b : a)).to;
  }

  /** What `payer` paid of `asset` later in the call's content, to others than the pool. */
  private paidOnBy(payer: string, asset: PaidAsset): Payment[] {
    const later = this.match.group.filter((o) => o.opC === this.step.op.opC && o.opI > this.step.op.opI);
    return payments(later, payer, asset).filter((p) => p.to !== this.step.contract);
  }

  /** The pool's own payments of `asset` in the call, in the order it made them. */
  payouts(asset: PaidAsset): Payment[] {
    return payments(this.emitted, this.step.contract, asset);
  }

  /** The user behind the call and the router it came through (a contract that called the pool). */
  parties(): { sender: string; router?: string } {
    const user = this.match.signer ?? this.step.sender ?? '';
    const router = this.step.op.opI > 0 && this.step.sender?.startsWith('KT1') ? this.step.sender : undefined;
    return { sender: router ? user : (this.step.sender ?? user), router };
  }
}
