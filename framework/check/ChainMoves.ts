import type { Knex } from 'knex';
import type { Catalog } from '../catalog/Catalog';
import { michelineFromHex } from '../michelson/ContractCode';
import { plainValue } from '../michelson/PlainValue';
import { arrayParameter, equalsSql } from '../query/ValueLists';
import { columnsOf, hexOf } from './checkRows';

/*
 * Why: what an operation group moved, read back from core-chain's `op` rows (the chain's own record of every
 * applied transaction, internal ones included): tez as the transactions' amounts, tokens as the `transfer`
 * calls' parameters read with the standards' types (TZIP-7 FA1.2, TZIP-12 FA2). The checks hold the
 * records to these moves, not to what the adapters computed.
 */

/** One move: `token` is `tez` or `KT1…_tokenId` (an FA1.2 token's id is 0). */
export interface ChainMove {
  readonly token: string;
  readonly from: string;
  readonly to: string;
  readonly amount: bigint;
}

const t = (prim: string, annot: string) => ({ prim, annots: [annot] });
/** TZIP-7 `transfer (from, (to, value))`. */
const FA12 = {
  prim: 'pair',
  args: [t('address', '%from'), { prim: 'pair', args: [t('address', '%to'), t('nat', '%v')] }],
};
/** TZIP-12 `transfer list (from_, list (to_, (token_id, amount)))`. */
const FA2 = {
  prim: 'list',
  args: [
    {
      prim: 'pair',
      args: [
        t('address', '%from'),
        {
          prim: 'list',
          annots: ['%txs'],
          args: [
            { prim: 'pair', args: [t('address', '%to'), { prim: 'pair', args: [t('nat', '%id'), t('nat', '%v')] }] },
          ],
        },
      ],
    },
  ],
};

/** A contract's call of another contract (entrypoint other than `transfer`): who pays for whom. */
export interface ChainCall {
  readonly from: string;
  readonly to: string;
}

/** What an applied group moved, and the contracts' calls in it. */
export interface GroupMoves {
  readonly moves: ChainMove[];
  readonly calls: ChainCall[];
}

/** Every applied group's moves and calls, by group hash (groups with neither are absent). */
export async function chainMoves(
  db: Knex,
  catalog: Catalog,
  hashes: readonly string[],
): Promise<Map<string, GroupMoves>> {
  const op = columnsOf(catalog, 'op', [
    'hash',
    'sender_id',
    'receiver_id',
    'volume',
    'entrypoint',
    'parameters',
    'type',
  ]);
  const account = columnsOf(catalog, 'account', ['address']);
  const hash = op.column('hash')!.type;
  const among = equalsSql(hash, 'o.hash', arrayParameter(hash), true);
  const out = new Map<string, GroupMoves>();
  for (let i = 0; i < hashes.length; i += 500) {
    const list = hashes.slice(i, i + 500).map((h) => hash.toDb(h)) as Knex.RawBinding;
    const rows: Record<string, unknown>[] = (
      await db.raw(
        `select ${hash.select('o.hash', 'object')} as hash, s.address as sender, r.address as receiver, o.volume,
                o.entrypoint, o.parameters
           from ${op.schema}.${op.storage} o
           join ${account.schema}.${account.storage} s on s.row_id = o.sender_id
           join ${account.schema}.${account.storage} r on r.row_id = o.receiver_id
          where ${among.sql}
            and o.is_success and o.type = ${op.column('type')!.type.literal('transaction')}
          order by o.row_id`,
        Array<Knex.RawBinding>(among.uses).fill(list),
      )
    ).rows;
    for (const r of rows) {
      r.hash = hash.objectValue(String(r.hash));
      const moves = [
        ...tezMove(r),
        ...(r.entrypoint === 'transfer' ? tokenMoves(String(r.receiver), r.parameters) : []),
      ];
      const calls =
        r.entrypoint && r.entrypoint !== 'transfer' ? [{ from: String(r.sender), to: String(r.receiver) }] : [];
      if (moves.length === 0 && calls.length === 0) continue;
      const group = out.get(String(r.hash)) ?? { moves: [], calls: [] };
      group.moves.push(...moves);
      group.calls.push(...calls);
      out.set(String(r.hash), group);
    }
  }
  return out;
}

function tezMove(r: Record<string, unknown>): ChainMove[] {
  const amount = BigInt(String(r.volume ?? 0));
  return amount > 0n ? [{ token: 'tez', from: String(r.sender), to: String(r.receiver), amount }] : [];
}

/** A `transfer` call's moves of `token`'s tokens: FA2's when its parameter is FA2's, else FA1.2's, else none. */
function tokenMoves(token: string, parameters: unknown): ChainMove[] {
  const raw = michelineFromHex(hexOf(parameters));
  const fa2 = strictly(FA2, raw) as Array<{ from: string; txs: Array<{ to: string; id: bigint; v: bigint }> }>;
  if (fa2)
    return fa2.flatMap((b) => b.txs.map((x) => ({ token: `${token}_${x.id}`, from: b.from, to: x.to, amount: x.v })));
  const fa12 = strictly(FA12, raw) as { from: string; to: string; v: bigint } | undefined;
  return fa12 ? [{ token: `${token}_0`, from: fa12.from, to: fa12.to, amount: fa12.v }] : [];
}

function strictly(type: unknown, raw: unknown): unknown {
  if (raw === undefined) return undefined;
  try {
    return plainValue(type, raw, { strict: true });
  } catch {
    return undefined;
  }
}
