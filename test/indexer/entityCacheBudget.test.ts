import { expect } from 'chai';
import { EntityStates } from '../../framework/indexer/EntityStates';
import { BulkWriter } from '../../framework/storage/BulkWriter';
import { BACKEND } from '../support/TestDatabase';
import { manifestPlugin, startTestInstance, TestInstance } from '../support/TestInstance';

// A mutable table whose rows can be large, as contract rows with their code and storage are.
const CATALOG = `
version: 1
plugins:
  fixture:
    tables:
      blob:
        kind: mutable
        height_column: height
        columns:
          - { name: row_id, type: uint64 }
          - { name: name, type: string }
          - { name: height, type: uint64 }
          - { name: note, type: string }
          - { name: data, type: string }
        indexes:
          - { columns: [name], unique: true }
`;
const BUDGET = 1_000_000;

describe(`entity cache: bounded by bytes as well as by rows (${BACKEND})`, function () {
  let t: TestInstance;
  beforeEach(async function () {
    t = await startTestInstance({ catalogYaml: CATALOG, plugins: [manifestPlugin('fixture')] });
  });
  afterEach(async () => t?.close());

  /** One batch through the store of `blob` keyed by name: `work` runs inside it, then the batch is flushed. */
  async function batch<T>(
    states: EntityStates,
    work: (store: ReturnType<EntityStates['store']>) => Promise<T> | T,
  ): Promise<T> {
    const table = t.app.catalog.table('blob')!;
    return t.app.db.writer.transaction(async (trx) => {
      await states.beginBatch(trx, false, [table]);
      states.beginBlock(1);
      const out = await work(states.store(table, 'name'));
      await states.flush(new BulkWriter(t.app.db.kind));
      return out;
    });
  }

  /** The rows' notes, one read at a time (a transaction runs one query at a time). */
  async function notes(store: ReturnType<EntityStates['store']>, names: string[]): Promise<string[]> {
    const out: string[] = [];
    for (const name of names) out.push(String((await store.get(name))!.note));
    return out;
  }

  /** Writes `sizes.length` rows of those sizes, changes their notes behind the cache's back, and reads them again. */
  async function notesAfter(sizes: number[]): Promise<string[]> {
    const states = new EntityStates(BUDGET);
    await batch(states, (store) =>
      sizes.forEach((n, i) => store.insert({ name: `b${i}`, height: 1n, note: 'cached', data: 'x'.repeat(n) })),
    );
    await t.app.db.writer.raw(`update fixture.blob set note = 'database'`);
    return batch(states, (store) =>
      notes(
        store,
        sizes.map((_, i) => `b${i}`),
      ),
    );
  }

  it('keeps rows cached across batches while they take less than the budget', async function () {
    expect(await notesAfter([300_000, 300_000])).to.deep.equal(['cached', 'cached']);
  });

  it('drops every cached row after a flush that leaves more than the budget cached: they are read again', async function () {
    expect(await notesAfter([300_000, 300_000, 600_000])).to.deep.equal(['database', 'database', 'database']);
  });

  it('counts rows loaded from the database too', async function () {
    const states = new EntityStates(BUDGET);
    // Written by one cache, then loaded by another whose budget they exceed once loaded.
    await batch(new EntityStates(), (store) =>
      [0, 1, 2].forEach((i) => store.insert({ name: `b${i}`, height: 1n, note: 'first', data: 'y'.repeat(400_000) })),
    );
    await batch(states, async (store) => store.preload(['b0', 'b1', 'b2']));
    await t.app.db.writer.raw(`update fixture.blob set note = 'database'`);
    expect(await batch(states, (store) => notes(store, ['b0', 'b1', 'b2']))).to.deep.equal([
      'database',
      'database',
      'database',
    ]);
  });
});
