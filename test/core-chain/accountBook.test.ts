import { expect } from 'chai';
import type { Entity, EntityStore, Row } from '../../framework';
import { AccountBook } from '../../plugins/core-chain/AccountBook';

/** An entity store in memory: rows by address, patched in place as the framework's store does. */
class MemoryStore implements EntityStore {
  readonly rows = new Map<string, Entity>();
  private nextId = 1n;

  async get(key: string): Promise<Entity | undefined> {
    return this.rows.get(key);
  }

  async preload(): Promise<void> {}

  insert(row: Row): Entity {
    const entity = { ...row, row_id: this.nextId++ } as Entity;
    this.rows.set(String(row.address), entity);
    return entity;
  }

  update(entity: Entity, patch: Row): void {
    Object.assign(entity, patch);
  }

  pending(): readonly Entity[] {
    return [...this.rows.values()];
  }

  /** The same rows in new objects: what a store that reloads them from the database holds. */
  reloaded(): MemoryStore {
    const copy = new MemoryStore();
    for (const [k, e] of this.rows) copy.rows.set(k, { ...e });
    return copy;
  }
}

const BAKER = 'tz1VSUr8wwNhLAzempoch5d6hLRiTh8Cjcjb';
const STAKER = 'tz1aSkwEot3L2kmUvcoxzjMomb9mvBNuzFK6';
const time = (height: number): Date => new Date(Date.UTC(2026, 0, 1, 0, 0, height));

describe('core-chain: account working copies across blocks', () => {
  it('a row written back and tracked again in the next block is typed as reading it again would type it', async () => {
    const store = new MemoryStore();
    const first = new AccountBook(store, 1, time(1));
    const baker = (await first.track(BAKER))!;
    const staker = (await first.track(STAKER))!;
    first.markBaker(BAKER);
    first.delegate(STAKER, BAKER);
    baker.data.spendable_balance = 7_000_000n;
    baker.data.staked_balance = 3_000_000n;
    staker.data.spendable_balance = 500n;
    // An external staker's stake is a share of its baker's pool: stored as null, read back as 0.
    staker.data.stake_shares = 40n;
    staker.data.staked_balance = 40n;
    first.finish();
    expect(store.rows.get(STAKER)!.staked_balance).to.equal(null);
    expect(store.rows.get(STAKER)!.is_staked).to.equal(true);

    for (const height of [2, 3]) {
      const fresh = store.reloaded();
      const kept = new AccountBook(store, height, time(height));
      const read = new AccountBook(fresh, height, time(height));
      for (const address of [BAKER, STAKER]) {
        const a = (await kept.track(address))!;
        const b = (await read.track(address))!;
        expect(a.data, `${address} at ${height}`).to.deep.equal(b.data);
        expect(a.before, `${address} at ${height}`).to.deep.equal(b.before);
        a.data.total_received += BigInt(height);
        b.data.total_received += BigInt(height);
      }
      kept.finish();
      read.finish();
      for (const address of [BAKER, STAKER])
        expect(store.rows.get(address), `${address} at ${height}`).to.deep.equal(fresh.rows.get(address));
    }
    expect(store.rows.get(BAKER)!.last_seen).to.equal(3);
    expect(store.rows.get(BAKER)!.total_received).to.equal(5n);
  });
});
