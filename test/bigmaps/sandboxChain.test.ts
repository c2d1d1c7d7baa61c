import { b58Encode, PrefixV2 } from '@taquito/utils';
import { expect } from 'chai';
import { SandboxChain, SandboxRpcTransport } from '../../framework/sandbox';
import { BigmapsPlugin } from '../../plugins/bigmaps/plugin';
import { CoreChainPlugin } from '../../plugins/core-chain/plugin';
import type { Json } from '../chain/support/Json';
import { expectError, expectNotModified, getJson, Obj, readAllPages } from '../explorer/support/api';
import { indexSandbox } from '../support/IndexHarness';
import { BACKEND } from '../support/TestDatabase';
import { startTestInstance, TestInstance } from '../support/TestInstance';
import {
  BIGMAP_COLUMNS,
  data,
  expectTablesMatchReceipts,
  tableRows,
  UPDATE_COLUMNS,
  VALUE_COLUMNS,
} from './support/bigmapTables';
import { ExpectedBigmap, ReceiptBigmaps } from './support/receiptBigmaps';

// A chain whose two reorgs take back a bigmap removal and a key removal, and whose final branch
// allocates, copies, updates and removes keys and a whole bigmap (checked in the first test). Where each reorg
// falls is read from the chain: the first head whose last REORG_DEPTH blocks hold the change it is to take back.
const SEED = 'bigmaps-12';
const REORG_DEPTH = 3;
/** What each reorg takes back, in turn. */
const TAKEN_BACK = ['bigmap removal', 'remove'];
/** The first reorg's lowest head, so that the chain has a history of every kind of change below it. */
const FIRST_HEAD_MIN = 32;
/** How far to bake looking for a reorg's blocks; blocks baked after the last reorg. */
const SEARCH = 80;
const FINAL_BLOCKS = 4;
const PLUGINS = { plugins: [CoreChainPlugin, BigmapsPlugin], enabled: ['core-chain', 'bigmaps'] };
// Journaled (one block per transaction) only as deep as the reorgs reach: the rest is batched, and quicker.
const INDEXING = { reorgDepth: REORG_DEPTH + 1 };

/** A key as the text the explorer reads: a string or number, a pair's leaves comma-separated. */
function textOf(key: Json): string | undefined {
  if (key.prim !== 'Pair') return key.string ?? key.int;
  const leaves = (key.args as Json[]).map(textOf);
  return leaves.every((l) => l !== undefined) ? leaves.join(',') : undefined;
}

/** Kinds of bigmap change in the applied receipts of some blocks. */
function changeKinds(blocks: readonly Json[]): Set<string> {
  const r = new ReceiptBigmaps();
  blocks.forEach((b) => r.apply(b));
  return new Set(r.updates.map((u) => (u.action === 'remove' && u.hash === undefined ? 'bigmap removal' : u.action)));
}

describe(`bigmaps: a sandbox chain from genesis with two reorgs (${BACKEND})`, function () {
  this.timeout(300_000);
  // No DeFi traffic: the chain's bigmap changes come from the core sandbox's contracts, and stay the same as protocols
  // are added.
  const chain = new SandboxChain({ seed: SEED, profile: 'tiny', traffic: [] });
  const transport = new SandboxRpcTransport(chain);
  const blockJson = (level: number): Json => JSON.parse(chain.blockJson(chain.at(level)!)) as Json;
  const orphans: Json[] = [];
  const expected = new ReceiptBigmaps();
  let blocks: Json[];
  let t: TestInstance;
  let clean: TestInstance;

  /** The node's answer under /chains/main/blocks/{block}/context/big_maps/; undefined for 404. */
  const node = async (block: number | 'head', path: string): Promise<unknown> => {
    const res = await transport.get(`/chains/main/blocks/${block}/context/big_maps/${path}`);
    if (res.status === 404) return undefined;
    expect(res.status, path).to.equal(200);
    return JSON.parse(res.body);
  };
  const bigmapsBy = (test: (m: ExpectedBigmap) => boolean): ExpectedBigmap[] =>
    [...expected.bigmaps.values()].filter(test);
  /** Bakes on, past the last reorg's blocks, until the last REORG_DEPTH blocks hold a `kind` change; those blocks. */
  const bakeToTailWith = (kind: string): Json[] => {
    const from = Math.max(FIRST_HEAD_MIN, chain.headLevel + REORG_DEPTH + 1);
    for (let head = from; head < from + SEARCH; head++) {
      chain.bakeTo(head);
      const tail: Json[] = [];
      for (let level = head - REORG_DEPTH + 1; level <= head; level++) tail.push(blockJson(level));
      if (changeKinds(tail).has(kind)) return tail;
    }
    throw new Error(`no ${kind} in the ${SEARCH} blocks from level ${from}`);
  };
  const largest = (): ExpectedBigmap =>
    bigmapsBy((m) => m.deleteHeight === null).sort((a, b) => b.keys.size - a.keys.size)[0];

  before(async function () {
    t = await startTestInstance(PLUGINS);
    for (const kind of TAKEN_BACK) {
      orphans.push(...bakeToTailWith(kind));
      await indexSandbox(t, chain, INDEXING);
      chain.reorg(REORG_DEPTH);
    }
    chain.bake(FINAL_BLOCKS);
    await indexSandbox(t, chain, INDEXING);
    blocks = [];
    for (let level = 0; level <= chain.headLevel; level++) blocks.push(blockJson(level));
    blocks.forEach((b) => expected.apply(b));
    clean = await startTestInstance(PLUGINS);
    await indexSandbox(clean, chain, INDEXING);
  });
  after(async () => {
    await t?.close();
    await clean?.close();
  });

  it('the reorgs took back a bigmap removal and a key removal; the final chain has every kind of change', () => {
    expect([...changeKinds(orphans)]).to.include.members(['bigmap removal', 'remove', 'update']);
    expect([...changeKinds(blocks)]).to.include.members(['alloc', 'copy', 'update', 'remove', 'bigmap removal']);
  });

  it('the tables hold exactly what the final chain implies, and equal a run over the final chain alone', async () => {
    await expectTablesMatchReceipts(t, expected);
    for (const [code, columns] of [
      [
        'bigmaps',
        [...BIGMAP_COLUMNS, 'alloc_time', 'alloc_block', 'update_time', 'update_block', 'delete_time', 'delete_block'],
      ],
      ['bigmap_values', VALUE_COLUMNS],
      ['bigmap_updates', [...UPDATE_COLUMNS, 'time']],
    ] as const) {
      expect(await tableRows(t, code, columns), code).to.deep.equal(await tableRows(clean, code, columns));
    }
  });

  it("every live value equals the node's, and keys and bigmaps that are gone are gone at the node too", async () => {
    const values = await tableRows(t, 'bigmap_values', VALUE_COLUMNS);
    expect(values.length).to.be.greaterThan(50);
    for (const v of values)
      expect(data(v.value), `${v.bigmap_id}/${v.hash}`).to.deep.equal(await node('head', `${v.bigmap_id}/${v.hash}`));
    for (const b of await tableRows(t, 'bigmaps', BIGMAP_COLUMNS)) {
      const listed = (await node('head', String(b.bigmap_id))) as unknown[] | undefined;
      if (b.delete_height !== null) expect(listed, `removed bigmap ${b.bigmap_id}`).to.equal(undefined);
      else expect(listed?.length, `bigmap ${b.bigmap_id}`).to.equal(b.n_keys);
    }
    const live = new Set(values.map((v) => `${v.bigmap_id}:${v.hash}`));
    let gone = 0;
    for (const key of expected.touches.keys()) {
      if (live.has(key)) continue;
      const [id, hash] = key.split(':');
      expect(await node('head', `${id}/${hash}`), key).to.equal(undefined);
      gone++;
    }
    expect(gone).to.be.greaterThan(2);
  });

  it("values after an earlier block equal the node's context at that block", async () => {
    let singles = 0;
    for (const level of [18, 31, 45]) {
      for (const m of bigmapsBy((b) => b.allocHeight !== null && b.allocHeight <= level)) {
        const values = await getJson<Obj[]>(t, `/explorer/bigmap/${m.id}/values?block=${level}&prim=1&limit=500`);
        const listed = (await node(level, String(m.id))) as unknown[] | undefined;
        expect(values.length, `bigmap ${m.id} at ${level}`).to.equal(listed?.length ?? 0);
        for (const v of values) {
          expect(v.value_prim, `${m.id}/${v.hash} at ${level}`).to.deep.equal(await node(level, `${m.id}/${v.hash}`));
          expect(v.row_id).to.be.a('number');
        }
        const [first] = values;
        if (first) {
          expect(
            (await getJson(t, `/explorer/bigmap/${m.id}/${first.hash}?block=${level}&prim=1`)).value_prim,
          ).to.deep.equal(first.value_prim);
          singles++;
        }
      }
    }
    expect(singles, 'single values read at an earlier block').to.be.greaterThan(2);
  });

  it('bigmap objects: owner, allocation, last change, removal, types as typedefs and Micheline', async () => {
    const accounts = new Map(
      (await tableRows(t, 'account', ['row_id', 'address'])).map((a) => [a.address as string, a.row_id as number]),
    );
    const rows = new Map((await tableRows(t, 'bigmaps', BIGMAP_COLUMNS)).map((b) => [b.bigmap_id as number, b]));
    for (const m of expected.bigmaps.values()) {
      const o = await getJson(t, `/explorer/bigmap/${m.id}?prim=1`);
      const at = (level: number | null): [number, string, string] | [null, null, null] =>
        level === null
          ? [null, null, null]
          : [level, blocks[level].hash, blocks[level].header.timestamp.replace(/\.\d+Z$/, 'Z')];
      expect(o, `bigmap ${m.id}`).to.deep.include({
        contract: m.contract,
        bigmap_id: m.id,
        n_keys: m.keys.size,
        n_updates: m.nUpdates,
      });
      expect([o.alloc_height, o.alloc_block, o.alloc_time]).to.deep.equal(at(m.allocHeight));
      expect([o.update_height, o.update_block, o.update_time]).to.deep.equal(at(m.updateHeight));
      // Live bigmaps: 0, "" and Go's zero time (the TzPro SDK's Bigmap decodes non-pointer values).
      expect([o.delete_height, o.delete_block, o.delete_time]).to.deep.equal(
        m.deleteHeight === null ? [0, '', '0001-01-01T00:00:00Z'] : at(m.deleteHeight),
      );
      expect(o.row_id).to.equal(rows.get(m.id)!.row_id);
      expect({ key: o.key_type_prim, value: o.value_type_prim }).to.deep.equal({ key: m.keyType, value: m.valueType });
      // Typedef names as the original's: pairs are structs, ors unions.
      const typeName = (prim: string): string => (prim === 'pair' ? 'struct' : prim === 'or' ? 'union' : prim);
      expect(o.key_type).to.include({ name: 'key', type: typeName(m.keyType!.prim) });
      expect(o.value_type).to.include({ name: 'value', type: typeName(m.valueType!.prim) });
      expect(rows.get(m.id)!.account_id, `bigmap ${m.id}`).to.equal(accounts.get(m.contract!));
      expect(await getJson(t, `/explorer/bigmap/${m.id}`)).to.include({ key_type_prim: null, value_type_prim: null });
    }
  });

  it('keys and values: decoded with the types, every page by cursor and offset in both orders, meta and prim', async () => {
    const m = largest();
    expect(m.keys.size).to.be.greaterThan(12);
    const path = `/explorer/bigmap/${m.id}/values`;
    const all = await readAllPages(t, `${path}?prim=1&meta=1`, 'asc', 'cursor', 5);
    expect(all.map((v) => v.hash).sort()).to.deep.equal([...m.keys.keys()].sort());
    for (const v of all) {
      const e = m.keys.get(v.hash)!;
      expect({ key_prim: v.key_prim, value_prim: v.value_prim }).to.deep.equal({
        key_prim: e.key,
        value_prim: e.value,
      });
      expect(v.key).to.equal(e.key.string ?? e.key.int ?? e.key.bytes);
      expect(v.value).to.equal(e.value.int ?? e.value.string ?? e.value.bytes);
      const time = blocks[e.height].header.timestamp.replace(/\.\d+Z$/, 'Z');
      expect(v.meta).to.deep.equal({
        contract: m.contract,
        bigmap_id: m.id,
        time,
        height: e.height,
        op: null,
        sender: null,
        source: null,
      });
      expect(v).to.include({ bigmap_id: m.id, height: e.height, time });
    }
    const ids = all.map((v) => v.row_id);
    expect((await readAllPages(t, path, 'desc', 'cursor', 4)).map((v) => v.row_id)).to.deep.equal([...ids].reverse());
    expect((await readAllPages(t, path, 'asc', 'offset', 7)).map((v) => v.row_id)).to.deep.equal(ids);
    expect((await getJson<Obj[]>(t, path)).length).to.equal(Math.min(20, ids.length));
    const keys = await readAllPages(t, `/explorer/bigmap/${m.id}/keys?prim=1`, 'asc', 'cursor', 6);
    expect(keys.map((k) => [k.row_id, k.hash, k.key, k.prim])).to.deep.equal(
      all.map((v) => [v.row_id, v.hash, v.key, v.key_prim]),
    );
    expect(keys[0]).not.to.have.any.keys('value', 'meta');
    const plain = await getJson<Obj[]>(t, `${path}?limit=1`);
    expect(plain[0]).to.have.all.keys('row_id', 'key', 'hash', 'value', 'bigmap_id', 'key_id', 'height', 'time');
  });

  it('one value by key hash or by the key itself; unknown keys are 404, keys that do not fit the type 400', async () => {
    // A few keys of every bigmap by hash; by the key's text, one key of each kind (tz1…tz4, KT1, names) per bigmap.
    const kinds = new Set<string>();
    for (const m of bigmapsBy((b) => b.deleteHeight === null && b.keys.size > 0)) {
      const mapKinds = new Set<string>();
      for (const [i, [hash, e]] of [...m.keys].entries()) {
        const text = textOf(e.key);
        const kind = text && m.keyType!.prim === 'address' ? text.slice(0, 3) : m.keyType!.prim;
        const byText = text !== undefined && !mapKinds.has(kind);
        if (i < 3 || byText)
          expect(await getJson(t, `/explorer/bigmap/${m.id}/${hash}?prim=1`)).to.deep.include({
            hash,
            key_prim: e.key,
            value_prim: e.value,
          });
        if (!byText) continue;
        mapKinds.add(kind);
        kinds.add(kind);
        expect(
          (await getJson(t, `/explorer/bigmap/${m.id}/${encodeURIComponent(text)}`)).hash,
          `${text} in ${m.id}`,
        ).to.equal(hash);
      }
    }
    expect([...kinds]).to.include.members(['tz1', 'tz2', 'tz3', 'tz4', 'KT1', 'string', 'pair']);
    const m = largest();
    const missing = m.keyType!.prim === 'address' ? 'tz1burnburnburnburnburnburnburjAYjjX' : 'no-such-name';
    expect(await expectError(t, `/explorer/bigmap/${m.id}/${missing}`, 404, 1305)).to.equal('no such bigmap key');
    await expectError(t, `/explorer/bigmap/${m.id}/exprtZBwZUeYYYfUs9B9Rg2ywHezVHnCCnmF9WsDQVrs582dSK63dC`, 404, 1305);
    const natKeyed = bigmapsBy((b) => ['nat', 'address'].includes(b.keyType?.prim))[0];
    await expectError(t, `/explorer/bigmap/${natKeyed.id}/not%20a%20${natKeyed.keyType!.prim}`, 400, 1301);
    await expectError(t, `/explorer/bigmap/${m.id}/${[...m.keys.keys()][0]}.csv`, 400, 1001);
  });

  it('updates, of the bigmap and of one key: in chain order with meta (op, sender, source), since/block bounds and filters', async () => {
    for (const m of expected.bigmaps.values()) {
      const mine = expected.updates.filter((u) => u.bigmap_id === m.id);
      const listed = await readAllPages(t, `/explorer/bigmap/${m.id}/updates?meta=1&prim=1`, 'asc', 'cursor', 7);
      expect(
        listed.map((u) => [u.action, u.hash, u.meta.height, u.meta.op, u.meta.sender, u.meta.source]),
        `bigmap ${m.id}`,
      ).to.deep.equal(
        mine.map((u) => [u.action, u.hash ?? null, u.height, u.op ?? null, u.sender ?? null, u.source ?? null]),
      );
      listed.forEach((u, i) => {
        const e = mine[i];
        if (e.action === 'update') expect(u.value_prim).to.deep.equal(e.value);
        if (e.key !== undefined) expect(u.key_prim).to.deep.equal(e.key);
        if (e.action === 'alloc' || e.action === 'copy')
          expect({ k: u.key_type_prim, v: u.value_type_prim }).to.deep.equal({ k: e.keyType, v: e.valueType });
        if (e.action === 'copy') expect(u).to.include({ source_big_map: e.sourceId, destination_big_map: m.id });
      });
    }
    const m = largest();
    // The key updated most often, by hash and by the key itself, on both paths.
    const [touchedKey, heights] = [...expected.touches]
      .filter(([k]) => k.startsWith(`${m.id}:`))
      .sort((a, b) => b[1].length - a[1].length)[0];
    const hash = touchedKey.split(':')[1];
    expect(heights.length).to.be.greaterThan(2);
    const text = m.keys.get(hash)?.key.string;
    for (const key of [hash, ...(text ? [text] : [])]) {
      for (const path of [`/explorer/bigmap/${m.id}/updates/${key}`, `/explorer/bigmap/${m.id}/${key}/updates`]) {
        expect(
          (await getJson<Obj[]>(t, `${path}?meta=1&limit=500`)).map((u) => [u.hash, u.meta.height]),
          path,
        ).to.deep.equal(heights.map((h) => [hash, h]));
        const bounded = await getJson<Obj[]>(
          t,
          `${path}?meta=1&since=${heights[0]}&block=${heights[heights.length - 2]}&limit=500`,
        );
        expect(
          bounded.map((u) => u.meta.height),
          path,
        ).to.deep.equal(heights.slice(1, -1));
      }
    }
    const removals = expected.updates.filter((u) => u.action === 'remove' && u.bigmap_id === m.id).length;
    expect((await getJson<Obj[]>(t, `/explorer/bigmap/${m.id}/updates?action=remove&limit=500`)).length).to.equal(
      removals,
    );
  });

  it('errors: malformed ids and parameters are 400, unknown bigmaps and blocks 404, CSV refused; ETags answer 304', async () => {
    const m = largest();
    expect(await expectError(t, '/explorer/bigmap/abc', 400, 1301)).to.equal("invalid bigmap id 'abc'");
    await expectError(t, '/explorer/bigmap/1x/values', 400, 1301);
    expect(await expectError(t, '/explorer/bigmap/424242', 404, 1305)).to.equal('no such bigmap');
    await expectError(t, '/explorer/bigmap/424242/values', 404, 1305);
    await expectError(t, '/explorer/bigmap/-1', 404, 1305);
    for (const suffix of ['.csv', '/keys.csv', '/values.csv', '/updates.csv'])
      await expectError(t, `/explorer/bigmap/${m.id}${suffix}`, 400, 1001);
    await expectError(t, `/explorer/bigmap/${m.id}/values?order=sideways`, 400, 1005);
    await expectError(t, `/explorer/bigmap/${m.id}/values?limit=-1`, 400, 1005);
    await expectError(t, `/explorer/bigmap/${m.id}/values?cursor=x`, 400, 1007);
    await expectError(t, `/explorer/bigmap/${m.id}/values?colour=red`, 400, 1007);
    await expectError(t, `/explorer/bigmap/${m.id}/values?prim=maybe`, 400, 1005);
    await expectError(t, `/explorer/bigmap/${m.id}/values?block=BLzzz`, 400, 1005);
    await expectError(t, `/explorer/bigmap/${m.id}/updates?since=${'B'.padEnd(51, 'M')}`, 400, 1005);
    await expectError(
      t,
      `/explorer/bigmap/${m.id}/values?block=${b58Encode(new Uint8Array(32), PrefixV2.BlockHash)}`,
      404,
      1305,
    );
    expect((await getJson(t, `/explorer/bigmap/${m.id}.json`)).bigmap_id).to.equal(m.id);
    for (const path of [
      `/explorer/bigmap/${m.id}`,
      `/explorer/bigmap/${m.id}/values`,
      `/explorer/bigmap/${m.id}/keys?block=20`,
      `/explorer/bigmap/${m.id}/updates`,
      `/explorer/bigmap/${m.id}/${[...m.keys.keys()][0]}`,
    ]) {
      await expectNotModified(t, path);
    }
  });

  it('/tables serve the rows with filters', async () => {
    const m = largest();
    const values = await getJson<unknown[][]>(t, `/tables/bigmap_values?bigmap_id=${m.id}&columns=hash&limit=500`);
    expect(values.map((r) => r[0]).sort()).to.deep.equal([...m.keys.keys()].sort());
    const removed = await getJson<unknown[][]>(t, '/tables/bigmaps?delete_height.gt=0&columns=bigmap_id');
    expect(removed.map((r) => r[0])).to.deep.equal(bigmapsBy((b) => b.deleteHeight !== null).map((b) => b.id));
    const csv = await (
      await t.get(`/tables/bigmap_updates.csv?bigmap_id=${m.id}&columns=action,height&limit=3`)
    ).text();
    expect(csv.split('\r\n')[0]).to.equal('action,height');
  });
});
