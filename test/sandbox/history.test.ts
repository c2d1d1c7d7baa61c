import { expect } from 'chai';
import { SandboxChain, SandboxRpcTransport } from '../../framework/sandbox';
import { appliedResults, blocksOf, effectiveUpdateLists, type Block } from './chainWalk';

/** Ledger facts rebuilt from block receipts alone, the way an indexer sees them. */
class ReceiptReplay {
  readonly balances = new Map<string, bigint>();
  readonly ownFrozen = new Map<string, bigint>();
  readonly counters = new Map<string, string>();
  readonly storages = new Map<string, unknown>();
  readonly contracts = new Set<string>();
  readonly bigMaps = new Map<string, Map<string, unknown>>();
  readonly removedBigMaps = new Set<string>();

  apply(block: Block): void {
    for (const list of effectiveUpdateLists(block))
      for (const u of list) {
        if (u.kind === 'contract')
          this.balances.set(u.contract as string, (this.balances.get(u.contract as string) ?? 0n) + BigInt(u.change));
        const staker = u.staker as Record<string, string> | undefined;
        const owner =
          u.kind === 'freezer' && u.category === 'deposits'
            ? (staker?.baker_own_stake ?? staker?.baker_edge)
            : undefined;
        if (owner) this.ownFrozen.set(owner, (this.ownFrozen.get(owner) ?? 0n) + BigInt(u.change));
      }
    for (const c of block.operations.flat().flatMap((op) => op.contents))
      if (c.counter !== undefined) this.counters.set(c.source as string, c.counter);
    for (const { contract, result } of appliedResults(block)) {
      for (const kt1 of result.originated_contracts ?? []) this.contracts.add(kt1);
      if (contract && result.storage !== undefined) this.storages.set(contract, result.storage);
      for (const item of result.lazy_storage_diff ?? []) {
        const { action, source, updates } = item.diff;
        if (action === 'remove') {
          this.bigMaps.delete(item.id);
          this.removedBigMaps.add(item.id);
          continue;
        }
        if (action === 'alloc') this.bigMaps.set(item.id, new Map());
        if (action === 'copy') this.bigMaps.set(item.id, new Map(this.bigMaps.get(source as string)));
        const map = this.bigMaps.get(item.id) as Map<string, unknown>;
        for (const u of updates ?? []) {
          if (u.value === undefined) map.delete(u.key_hash);
          else map.set(u.key_hash, u.value);
        }
      }
    }
  }
}

describe('sandbox context as of a past block', function () {
  // The seed's chain removes big maps (registry resets) within its 120 blocks (the first test checks that).
  const chain = new SandboxChain({ seed: 'past', profile: 'tiny' });
  const removed: string[] = [];
  const reorg = (depth: number) => {
    for (let l = chain.headLevel - depth + 1; l <= chain.headLevel; l++) removed.push(chain.at(l)!.hash);
    chain.reorg(depth);
  };
  chain.bake(70);
  reorg(3);
  chain.bake(30);
  reorg(2);
  chain.bake(20);
  const t = new SandboxRpcTransport(chain);
  const get = async (level: number | string, path: string) => {
    const res = await t.get(`/chains/main/blocks/${level}/context/${path}`);
    return { status: res.status, value: res.status === 200 ? (JSON.parse(res.body) as unknown) : undefined };
  };
  const head = chain.headLevel;
  const sampled = new Set([1, 2, 3, 8, 9, 25, 40, 67, 68, 69, 70, 85, 100, 101, 110, head - 1, head]);

  it('balances, counters, stakes, storages and big maps at level N equal a replay of the receipts of blocks ≤ N', async function () {
    const replay = new ReceiptReplay();
    const headBalances = new Map<string, string>();
    for (const address of chain.book.allAddresses())
      headBalances.set(address, (await get('head', `contracts/${address}/balance`)).value as string);
    let differFromHead = 0;
    let bigMapEntries = 0;
    for (const block of blocksOf(chain)) {
      replay.apply(block);
      const level = block.header.level;
      if (!sampled.has(level)) continue;
      for (const address of chain.book.allAddresses()) {
        const res = await get(level, `contracts/${address}/balance`);
        const exists = !address.startsWith('KT1') || replay.contracts.has(address);
        expect(res.status, `${address} at ${level}`).to.equal(exists ? 200 : 404);
        if (!exists) continue;
        expect(res.value, `balance of ${address} at ${level}`).to.equal(String(replay.balances.get(address) ?? 0n));
        if (res.value !== headBalances.get(address)) differFromHead++;
      }
      for (const [source, counter] of replay.counters)
        expect((await get(level, `contracts/${source}/counter`)).value, `counter of ${source} at ${level}`).to.equal(
          counter,
        );
      for (const [baker, frozen] of replay.ownFrozen)
        expect((await get(level, `contracts/${baker}/staked_balance`)).value, `stake of ${baker} at ${level}`).to.equal(
          String(frozen),
        );
      for (const [contract, storage] of replay.storages)
        expect(
          (await get(level, `contracts/${contract}/storage`)).value,
          `storage of ${contract} at ${level}`,
        ).to.deep.equal(storage);
      for (const [id, entries] of replay.bigMaps) {
        for (const [keyHash, value] of entries)
          expect(
            (await get(level, `big_maps/${id}/${keyHash}`)).value,
            `big map ${id} ${keyHash} at ${level}`,
          ).to.deep.equal(value);
        const listed = (await get(level, `big_maps/${id}`)).value as unknown[];
        expect(listed.map((v) => JSON.stringify(v)).sort()).to.deep.equal(
          [...entries.values()].map((v) => JSON.stringify(v)).sort(),
        );
        bigMapEntries += entries.size;
      }
      for (const id of replay.removedBigMaps)
        expect((await get(level, `big_maps/${id}`)).status, `removed big map ${id} at ${level}`).to.equal(404);
    }
    // The check is not vacuous: past answers differ from the head's, and big maps have history.
    expect(differFromHead).to.be.greaterThan(100);
    expect(bigMapEntries).to.be.greaterThan(100);
    expect(replay.removedBigMaps.size).to.be.greaterThan(0);
  });

  it('a level, its hash and head~N name the same context', async function () {
    const level = 85;
    const hash = chain.at(level)!.hash;
    const baker = chain.book.bakers[0].address;
    for (const address of [
      baker,
      ...chain.book.allAddresses().slice(-5),
      chain.knownContracts().find((c) => c.role === 'lb_cpmm')!.address,
    ]) {
      const byLevel = await get(level, `contracts/${address}`);
      expect(await get(hash, `contracts/${address}`)).to.deep.equal(byLevel);
      expect(await get(`head~${head - level}`, `contracts/${address}`)).to.deep.equal(byLevel);
    }
    expect(await get(hash, `delegates/${baker}`)).to.deep.equal(await get(level, `delegates/${baker}`));
  });

  it('blocks of a branch a reorg removed have no context (404)', async function () {
    expect(removed).to.have.length(5);
    const baker = chain.book.bakers[0].address;
    for (const hash of removed) {
      expect((await get(hash, `contracts/${baker}/balance`)).status).to.equal(404);
      expect((await t.get(`/chains/main/blocks/${hash}/helpers/baking_rights`)).status).to.equal(404);
    }
  });
});
