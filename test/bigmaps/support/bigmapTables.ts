import { b58DecodeAndCheckPrefix, PrefixV2 } from '@taquito/utils';
import { expect } from 'chai';
import type { Json } from '../../chain/support/Json';
import type { TestInstance } from '../../support/TestInstance';
import type { ReceiptBigmaps } from './receiptBigmaps';
import { decodeMicheline } from '../../../framework';

export type Row = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/**
 * Every row of a table through `/tables/{code}`, as objects keyed by column; integers beyond 2^53 as decimal strings.
 */
export async function tableRows(t: TestInstance, code: string, columns: readonly string[]): Promise<Row[]> {
  const path = `/tables/${code}?columns=${columns.join(',')}&limit=50000`;
  const res = await t.get(path);
  const text = await res.text();
  expect(res.status, `${path}: ${text.slice(0, 300)}`).to.equal(200);
  const rows = JSON.parse(text.replace(/(?<=[[,])(-?\d{16,})(?=[,\]])/g, '"$1"')) as unknown[][];
  return rows.map((r) => Object.fromEntries(columns.map((c, i) => [c, r[i]])));
}

/**
 * Hex binary Micheline as JSON. core-chain's reader (its encoder is checked against the codec's PACK
 * in test/core-chain): the codec's own unpack refuses some valid values (lambdas it type-checks).
 */
export function data(hex: string | null): Json | null {
  return hex === null ? null : (decodeMicheline(Buffer.from(hex, 'hex')) as Json);
}

/**
 * `key_id` of a key hash: the digest's first 63 bits, big-endian, never negative (as a decimal string, beyond 2^53).
 */
export function keyIdOf(hash: string): string {
  const [digest] = b58DecodeAndCheckPrefix(hash, [PrefixV2.ScriptExpr]);
  return (BigInt(`0x${Buffer.from(digest).subarray(0, 8).toString('hex')}`) / 2n).toString();
}

export const UPDATE_COLUMNS = [
  'row_id',
  'bigmap_id',
  'key_id',
  'action',
  'op_id',
  'height',
  'key',
  'value',
  'op',
  'hash',
];
export const VALUE_COLUMNS = ['row_id', 'bigmap_id', 'height', 'key_id', 'key', 'value', 'hash', 'time'];
export const BIGMAP_COLUMNS = [
  'row_id',
  'bigmap_id',
  'account_id',
  'alloc_height',
  'n_updates',
  'n_keys',
  'update_height',
  'delete_height',
  'contract',
  'key_type',
  'value_type',
];

/**
 * The three tables hold what the receipts imply: every update in order (keys and values read back
 * by the codec, key ids from the hashes), one bigmaps row per permanent bigmap with its counters,
 * and as values exactly the live keys, each row being its latest update.
 */
export async function expectTablesMatchReceipts(t: TestInstance, expected: ReceiptBigmaps): Promise<void> {
  // Key ids exceed 2^53: they are compared as decimal text.
  const updates = (await tableRows(t, 'bigmap_updates', UPDATE_COLUMNS)).map((r): Row => ({
    ...r,
    key_id: r.key_id === null ? null : String(r.key_id),
  }));
  expect(updates.length, 'bigmap_updates rows').to.equal(expected.updates.length);
  const ops = new Map((await tableRows(t, 'op', ['id', 'hash'])).map((r) => [r.id as number, r.hash as string | null]));
  updates.forEach((row, i) => {
    const e = expected.updates[i];
    const where = `update #${i} (${e.action} of bigmap ${e.bigmap_id} at ${e.height})`;
    expect(
      { bigmap_id: row.bigmap_id, action: row.action, height: row.height, op: row.op, hash: row.hash ?? undefined },
      where,
    ).to.deep.equal({ bigmap_id: e.bigmap_id, action: e.action, height: e.height, op: e.op, hash: e.hash });
    expect(Math.floor(row.op_id / 65536), where).to.equal(e.height);
    expect(ops.get(row.op_id), `${where}: op_id names its operation`).to.equal(e.op);
    if (e.hash !== undefined) {
      expect(row.key_id, where).to.equal(keyIdOf(e.hash));
      expect(data(row.key), where).to.deep.equal(e.key);
      expect(data(row.value), where).to.deep.equal(e.action === 'update' ? e.value : null);
    } else expect(row.key_id, where).to.equal(e.action === 'copy' ? String(e.sourceId) : null);
  });

  const bigmaps = await tableRows(t, 'bigmaps', BIGMAP_COLUMNS);
  expect(
    bigmaps.map((b) => b.bigmap_id).sort((a, b) => a - b),
    'bigmaps rows',
  ).to.deep.equal([...expected.bigmaps.keys()].sort((a, b) => a - b));
  for (const b of bigmaps) {
    const e = expected.bigmaps.get(b.bigmap_id)!;
    expect(
      {
        contract: b.contract,
        alloc_height: b.alloc_height,
        n_updates: b.n_updates,
        n_keys: b.n_keys,
        update_height: b.update_height,
        delete_height: b.delete_height,
      },
      `bigmap ${e.id}`,
    ).to.deep.equal({
      contract: e.contract,
      alloc_height: e.allocHeight,
      n_updates: e.nUpdates,
      n_keys: e.keys.size,
      update_height: e.updateHeight,
      delete_height: e.deleteHeight,
    });
  }

  const latest = new Map<string, number>();
  for (const u of updates) if (u.hash !== null) latest.set(`${u.bigmap_id}:${u.hash}`, u.row_id);
  const values = await tableRows(t, 'bigmap_values', VALUE_COLUMNS);
  const live = [...expected.bigmaps.values()].flatMap((m) =>
    [...m.keys].map(([hash, k]) => ({ id: m.id, hash, ...k })),
  );
  expect(values.map((v) => `${v.bigmap_id}:${v.hash}`).sort(), 'live keys').to.deep.equal(
    live.map((k) => `${k.id}:${k.hash}`).sort(),
  );
  for (const v of values) {
    const e = live.find((k) => k.id === v.bigmap_id && k.hash === v.hash)!;
    const where = `value ${v.hash} of bigmap ${v.bigmap_id}`;
    expect({ key: data(v.key), value: data(v.value), height: v.height, key_id: String(v.key_id) }, where).to.deep.equal(
      { key: e.key, value: e.value, height: e.height, key_id: keyIdOf(v.hash) },
    );
    expect(v.row_id, `${where}: row_id is its latest update's`).to.equal(latest.get(`${v.bigmap_id}:${v.hash}`));
  }
}
