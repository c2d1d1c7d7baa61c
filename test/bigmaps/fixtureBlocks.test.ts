import { expect } from 'chai';
import type { RawBlock } from '../../framework/chain';
import { BigmapsPlugin } from '../../plugins/bigmaps/plugin';
import { CoreChainPlugin } from '../../plugins/core-chain/plugin';
import type { Json } from '../chain/support/Json';
import { getJson, Obj } from '../explorer/support/api';
import { listFixtures, readFixtureJson } from '../support/fixtures';
import { indexBlocks } from '../support/IndexHarness';
import { BACKEND } from '../support/TestDatabase';
import { startTestInstance, TestInstance } from '../support/TestInstance';
import { expectTablesMatchReceipts, tableRows } from './support/bigmapTables';
import { ReceiptBigmaps } from './support/receiptBigmaps';

/**
 * Recordings that add only more key updates to protocols and features other recordings cover (the
 * first edonet run, a second Edo and a second Granada mainnet block): left out to keep the test short.
 */
const REPEATS = new Set([
  228459, 228460, 228461, 228462, 228463, 228464, 228465, 228466, 228467, 228468, 228490, 1443112, 1676122,
]);
const hasBigmapChanges = (raw: Json): boolean =>
  /"(lazy_storage_diff|big_map_diff)"/.test(JSON.stringify(raw.operations ?? []));
const isFullBlock = (raw: Json): boolean => typeof raw.hash === 'string' && Number.isInteger(raw.header?.level);

/** Results of a block with their contents, for finding a recorded receipt to extend. */
function* results(block: Json): Generator<{ content: Json; result: Json }> {
  for (const group of (block.operations ?? []).flat())
    for (const content of group.contents ?? []) {
      if (content.metadata?.operation_result) yield { content, result: content.metadata.operation_result };
      for (const i of content.metadata?.internal_operation_results ?? []) yield { content, result: i.result };
    }
}

/**
 * A recorded receipt whose content copies a bigmap into a temporary one (edonet 228523: bigmap 1541
 * passed by value as `-2` to an oracle contract), extended by its internal call setting a key of `-2` (one it writes to
 * its own bigmap) and copying `-2` into a new permanent bigmap: what a contract storing a bigmap it received does.
 */
function withTemporaryCopy(block: Json, newId: number): Json {
  const copy = structuredClone(block);
  for (const { content, result } of results(copy)) {
    const temporary = (result.lazy_storage_diff ?? []).find((d: Json) => Number(d.id) < 0 && d.diff.action === 'copy');
    if (!temporary) continue;
    const internal = content.metadata.internal_operation_results[0].result;
    // A key (and value) the internal call itself writes elsewhere; its hash comes with it.
    const [update] = (internal.lazy_storage_diff as Json[]).find((d) => d.diff.updates?.length > 0)!.diff.updates;
    internal.lazy_storage_diff = [
      { kind: 'big_map', id: temporary.id, diff: { action: 'update', updates: [update] } },
      { kind: 'big_map', id: String(newId), diff: { action: 'copy', source: temporary.id, updates: [] } },
      ...(internal.lazy_storage_diff ?? []),
    ];
    return copy;
  }
  throw new Error('no temporary bigmap copy in the block');
}

describe(`bigmaps: recorded blocks of every protocol (${BACKEND})`, function () {
  this.timeout(120_000);
  const byLevel = new Map<number, Json>();
  for (const file of listFixtures('tezos-rpc', 'blocks')) {
    const raw = readFixtureJson<Json>(file);
    if (isFullBlock(raw) && hasBigmapChanges(raw) && !REPEATS.has(raw.header.level) && !byLevel.has(raw.header.level))
      byLevel.set(raw.header.level, raw);
  }
  const NEW_ID = 999_999_999;
  byLevel.set(228523, withTemporaryCopy(byLevel.get(228523)!, NEW_ID));
  const blocks = [...byLevel.values()].sort((a, b) => a.header.level - b.header.level);
  const expected = new ReceiptBigmaps();
  blocks.forEach((b) => expected.apply(b));
  let t: TestInstance;

  before(async function () {
    t = await startTestInstance({ plugins: [CoreChainPlugin, BigmapsPlugin], enabled: ['core-chain', 'bigmaps'] });
    // One instance, level order: the indexer accepts the gaps, the recordings of several networks share the ids.
    await indexBlocks(t, blocks as unknown as RawBlock[]);
  });
  after(async () => t?.close());

  it('covers legacy and lazy diffs, alloc, copy, updates, removals and a backtracked result', () => {
    const kinds = new Set<string>();
    for (const b of blocks)
      for (const { result } of results(b)) {
        if (result.big_map_diff && !result.lazy_storage_diff) kinds.add('legacy only');
        if (result.lazy_storage_diff) kinds.add('lazy');
        if (result.status !== 'applied' && (result.lazy_storage_diff || result.big_map_diff)) kinds.add('not applied');
      }
    for (const u of expected.updates) kinds.add(u.action);
    expect([...kinds].sort()).to.deep.equal([
      'alloc',
      'copy',
      'lazy',
      'legacy only',
      'not applied',
      'remove',
      'update',
    ]);
    expect(new Set(blocks.map((b) => b.protocol)).size).to.be.greaterThan(4);
  });

  it('no allocation reuses an id an earlier recording used (the expectations assume fresh ids)', () => {
    const seen = new Set<number>();
    for (const u of expected.updates) {
      if (u.action === 'alloc' || u.action === 'copy')
        expect(seen.has(u.bigmap_id), `bigmap ${u.bigmap_id}`).to.equal(false);
      seen.add(u.bigmap_id);
    }
  });

  it('the tables hold exactly what the applied receipts imply', async () => {
    await expectTablesMatchReceipts(t, expected);
  });

  it('temporary bigmaps leave no rows; copied into a permanent one, their keys do', async () => {
    for (const code of ['bigmaps', 'bigmap_values', 'bigmap_updates']) {
      expect(
        (await tableRows(t, code, ['bigmap_id'])).filter((r) => r.bigmap_id < 0),
        code,
      ).to.deep.equal([]);
    }
    const copied = expected.bigmaps.get(NEW_ID)!;
    expect(copied.keys.size, "the source's keys and the one set on the temporary bigmap").to.be.greaterThan(1);
    const values = await getJson<Obj[]>(t, `/explorer/bigmap/${NEW_ID}/values?prim=1&limit=500`);
    expect(values.map((v) => [v.hash, v.value_prim])).to.have.deep.members(
      [...copied.keys].map(([hash, k]) => [hash, k.value]),
    );
    const updates = await getJson<Obj[]>(t, `/explorer/bigmap/${NEW_ID}/updates?limit=500`);
    expect(updates.map((u) => u.action)).to.deep.equal(['copy', ...values.map(() => 'update')]);
    expect(updates[0]).to.include({ source_big_map: -2, destination_big_map: NEW_ID });
  });

  it('allocated types are served as Micheline and typedefs; keys by literal hash to the node key_hash', async () => {
    const allocated = [...expected.bigmaps.values()].filter((m) => m.keyType !== undefined && m.allocHeight !== null);
    expect(allocated.length).to.be.greaterThan(5);
    let literals = 0;
    for (const m of allocated) {
      const object = await getJson(t, `/explorer/bigmap/${m.id}?prim=1`);
      expect({ key: object.key_type_prim, value: object.value_type_prim }, `bigmap ${m.id}`).to.deep.equal({
        key: m.keyType,
        value: m.valueType,
      });
      expect(object.key_type.name, `bigmap ${m.id}`).to.equal('key');
      if (['pair', 'or', 'option'].includes(m.keyType!.prim))
        expect(object.key_type.type).to.be.oneOf(['struct', 'union', m.keyType!.args?.[0]?.prim]);
      else expect(object.key_type.type, `bigmap ${m.id}`).to.equal(m.keyType!.prim);
      for (const [hash, k] of m.keys) {
        const text = literalOf(m.keyType!, k.key);
        if (text === undefined || text === '') continue;
        const byKey = await getJson(t, `/explorer/bigmap/${m.id}/${encodeURIComponent(text)}`);
        expect(byKey.hash, `${text} in bigmap ${m.id}`).to.equal(hash);
        literals++;
      }
    }
    expect(literals).to.be.greaterThan(3);
  });
});

/** A key as the plain text the explorer reads for its type (integers, strings, bytes), or undefined for other types. */
function literalOf(type: Json, key: Json): string | undefined {
  if (['int', 'nat', 'mutez'].includes(type.prim)) return key.int;
  if (type.prim === 'string') return key.string;
  return type.prim === 'bytes' ? key.bytes : undefined;
}
