import { expect } from 'chai';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { ArchiveBlockSource, BlockSourceError, selectCanonicalChain, type BlockRef } from '../../framework/chain';
import { fixturePath, listFixtures, readFixtureJson } from '../support/fixtures';
import type { Json } from './support/Json';

const edonetFiles = listFixtures('tezos-rpc', 'blocks', 'legacy-pre-ithaca', 'edonet');
const edonet = edonetFiles.map((f) => readFixtureJson<Json>(f));
const edonetLevels = edonet.map((b) => b.header.level as number).sort((a, b) => a - b);

async function collect<T>(iterable: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of iterable) out.push(item);
  return out;
}

describe('chain/ArchiveBlockSource', () => {
  let dir: string;
  const warnings: object[] = [];
  const logger = { warn: (obj: object) => warnings.push(obj) };

  before(() => {
    // Links with names that sort in a different order than the levels, spread over sub-folders.
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tzidx-archive-'));
    fs.mkdirSync(path.join(dir, 'nested', 'deeper'), { recursive: true });
    edonetFiles.forEach((file, i) => {
      const name = `${String(edonetFiles.length - i).padStart(3, '0')}-recording.json`;
      const folder = i % 3 === 0 ? dir : i % 3 === 1 ? path.join(dir, 'nested') : path.join(dir, 'nested', 'deeper');
      fs.symlinkSync(fixturePath(file), path.join(folder, name));
    });
    fs.symlinkSync(
      fixturePath('tezos-rpc', 'operations', 'pytezos', 'op3GZiumMFEGWNPae1GDGEG2skKEibhEgusKc7XBG7gzxbSg5SD.json'),
      path.join(dir, 'group.json'),
    );
    fs.writeFileSync(path.join(dir, 'broken.json'), '{"hash": "B');
    fs.writeFileSync(path.join(dir, 'notes.txt'), 'not json');
  });

  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('orders blocks by header.level, not by file name, and serves each level', async () => {
    const source = await ArchiveBlockSource.open(dir, { logger });
    const index = await source.index();
    expect(index.levels).to.deep.equal(edonetLevels);
    for (const level of edonetLevels) expect((await source.blockAt(level))?.header.level).to.equal(level);
    expect((await source.head()).level).to.equal(edonetLevels[edonetLevels.length - 1]);
    expect(await source.firstLevel()).to.equal(edonetLevels[0]);
    expect(await source.blockAt(edonetLevels[0] - 1)).to.equal(undefined);
  });

  it('skips files that are not full blocks, with a warning each', async () => {
    warnings.length = 0;
    await ArchiveBlockSource.open(dir, { logger });
    const files = warnings.map((w) => path.basename((w as { file: string }).file)).sort();
    expect(files).to.deep.equal(['broken.json', 'group.json']);
  });

  it('links the consecutive edonet levels by predecessor', async () => {
    const source = await ArchiveBlockSource.open(dir);
    let pairs = 0;
    for (const level of edonetLevels) {
      if (!edonetLevels.includes(level + 1)) continue;
      const lower = await source.blockAt(level);
      const upper = await source.blockAt(level + 1);
      expect(upper?.header.predecessor, `level ${level + 1}`).to.equal(lower?.hash);
      pairs++;
    }
    expect(pairs).to.be.greaterThan(15);
  });

  it('limits the range with fromLevel/toLevel', async () => {
    const from = edonetLevels[3];
    const to = edonetLevels[edonetLevels.length - 4];
    const source = await ArchiveBlockSource.open(dir, { fromLevel: from, toLevel: to });
    expect((await source.index()).levels).to.deep.equal(edonetLevels.filter((l) => l >= from && l <= to));
    expect(await source.firstLevel()).to.equal(from);
    expect((await source.head()).level).to.equal(to);
    expect(await source.blockAt(edonetLevels[0])).to.equal(undefined);
  });

  it('walks gaps with nextLevel and reports the end', async () => {
    const source = await ArchiveBlockSource.open(dir);
    const walked: number[] = [];
    for (let level = await source.nextLevel(-1); level !== undefined; level = await source.nextLevel(level))
      walked.push(level);
    expect(walked).to.deep.equal(edonetLevels);
  });

  it('is exhausted after yielding its head once', async () => {
    const source = await ArchiveBlockSource.open(dir);
    expect(source.live).to.equal(false);
    const heads = await collect(source.heads());
    expect(heads).to.deep.equal([await source.head()]);
  });

  it('reads only the top folder when recursive is false', async () => {
    const source = await ArchiveBlockSource.open(dir, { recursive: false });
    const topLevelFiles = edonetFiles.filter((_, i) => i % 3 === 0);
    const levels = topLevelFiles.map((f) => readFixtureJson<Json>(f).header.level as number).sort((a, b) => a - b);
    expect((await source.index()).levels).to.deep.equal(levels);
  });

  it('fails clearly on an empty range or a missing folder', async () => {
    expect(() => new ArchiveBlockSource(dir, { fromLevel: 10, toLevel: 5 })).to.throw(BlockSourceError);
    const empty = await ArchiveBlockSource.open(dir, { fromLevel: 1e9 });
    await empty.head().then(
      () => expect.fail('head() of an empty archive must fail'),
      (err: unknown) => expect(err).to.be.instanceOf(BlockSourceError),
    );
    expect(await collect(empty.heads())).to.deep.equal([]);
    await ArchiveBlockSource.open(path.join(dir, 'missing')).then(
      () => expect.fail('a missing folder must fail'),
      (err: unknown) => expect(err).to.be.instanceOf(BlockSourceError),
    );
  });

  describe('with a side branch', () => {
    let branchDir: string;
    const forkLevel = edonetLevels[2];
    const real = edonet.find((b) => b.header.level === forkLevel) as Json;
    const side = structuredClone(real);

    before(() => {
      branchDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tzidx-branch-'));
      for (const file of edonetFiles) fs.symlinkSync(fixturePath(file), path.join(branchDir, path.basename(file)));
      // A competing block at the same level with a better fitness that nothing above builds on.
      side.hash = 'BLsideBranchsideBranchsideBranchsideBranchsideBranch';
      side.header.fitness = [...real.header.fitness.slice(0, -1), 'ffffffffffffffff'];
      fs.writeFileSync(path.join(branchDir, 'aaa-side.json'), JSON.stringify(side));
    });

    after(() => fs.rmSync(branchDir, { recursive: true, force: true }));

    it('serves the block the chain of predecessors picks, and keeps the other addressable', async () => {
      const source = await ArchiveBlockSource.open(branchDir);
      expect((await source.blockAt(forkLevel))?.hash).to.equal(real.hash);
      expect((await source.blockByHash(side.hash))?.hash).to.equal(side.hash);
      expect((await source.blockByHash(real.hash))?.hash).to.equal(real.hash);
      expect(
        (await source.index())
          .branchesAt(forkLevel)
          .map((e) => e.hash)
          .sort(),
      ).to.deep.equal([real.hash, side.hash].sort());
    });

    it('picks the better fitness at the top level', async () => {
      const source = await ArchiveBlockSource.open(branchDir, { toLevel: forkLevel });
      expect((await source.head()).hash).to.equal(side.hash);
      expect((await source.blockAt(forkLevel))?.hash).to.equal(side.hash);
    });
  });
});

describe('chain/selectCanonicalChain', () => {
  const ref = (hash: string, level: number, predecessor: string, fitness: string[] = ['02', '00']): BlockRef => ({
    hash,
    level,
    predecessor,
    fitness,
  });

  it('follows predecessors down from the best head and restarts after a gap', () => {
    const blocks = [
      ref('A1', 1, 'A0'),
      ref('B1', 1, 'A0', ['02', 'ff']),
      ref('A2', 2, 'A1'),
      ref('A3', 3, 'A2', ['02', '01']),
      ref('C3', 3, 'X2', ['02', '02']),
      ref('D5', 5, 'D4'),
    ];
    const chain = selectCanonicalChain(blocks);
    expect([...chain.entries()].map(([level, b]) => `${level}:${b.hash}`).sort()).to.deep.equal([
      '1:A1',
      '2:A2',
      '3:C3',
      '5:D5',
    ]);
  });
});
