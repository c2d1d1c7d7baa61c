import { listFixtures, readFixtureJson } from '../support/fixtures';

/**
 * Mainnet's consensus eras, split where the number of operations per block changes most (attestation
 * slots and their packing). First levels from the protocol activation table (tzgo `protocols.go`):
 * Granada 1,589,249 (256 slots), Ithaca 2,244,609 (Tenderbake), Oxford 5,070,849 (February 2024, the
 * first protocol after tzindex's 2023 disk figure), Tallinn 11,640,289 (aggregated attestations),
 * Ushuaia 13,857,889 (the newest activation known here, where the projection stops).
 */
const ERAS = [
  { name: 'Emmy, 32 slots', first: 1 },
  { name: 'Emmy, 256 slots', first: 1_589_249 },
  { name: 'Tenderbake to Nairobi', first: 2_244_609 },
  { name: 'Oxford to Seoul', first: 5_070_849 },
  { name: 'Tallinn', first: 11_640_289 },
];
const END = 13_857_889;
/** Where tzindex's published figure (43 GB of mainnet, 2023) stands: the eras before Oxford. */
export const TZINDEX_2023 = { bytes: 43e9, before: 5_070_849 };

interface RecordedBlock {
  header: { level: number };
  operations?: { contents: unknown[] }[][];
}

/** One era: its first level, blocks, and the mean operation count of its recorded mainnet blocks. */
export interface Era {
  name: string;
  first: number;
  blocks: number;
  opsPerBlock: number;
  recorded: number;
}

/**
 * Each era's blocks and the mean operation count (contents of groups) of the real mainnet blocks
 * recorded in the shared fixtures for that era (a handful per era, so a rough figure); an era without
 * a recording of its own takes the mean of the era before (Oxford to Seoul: Tenderbake's attestations).
 */
export function mainnetEras(): Era[] {
  const files = [
    ...listFixtures('tezos-rpc', 'blocks', 'mainnet'),
    ...listFixtures('tezos-rpc', 'blocks', 'legacy-pre-ithaca', 'mainnet'),
  ];
  const samples = files
    .map((file) => readFixtureJson<RecordedBlock>(file))
    .filter((b) => b.header.level > 0 && b.operations);
  const eras: Era[] = [];
  ERAS.forEach((era, i) => {
    const next = ERAS[i + 1]?.first ?? END;
    const inEra = samples.filter((b) => b.header.level >= era.first && b.header.level < next);
    const before = eras[eras.length - 1];
    if (inEra.length === 0 && !before) throw new Error(`no recorded mainnet block in era ${era.name}`);
    const ops = (b: RecordedBlock) => b.operations!.flat().reduce((m, g) => m + g.contents.length, 0);
    const mean = inEra.length === 0 ? before.opsPerBlock : inEra.reduce((n, b) => n + ops(b), 0) / inEra.length;
    const blocks = next - era.first;
    eras.push({ name: era.name, first: era.first, blocks, opsPerBlock: mean, recorded: inEra.length });
  });
  return eras;
}

export interface Projection {
  /** Operations (contents of groups) of the whole chain to END. */
  operations: number;
  seconds: number;
  /** Per era: blocks, recorded blocks sampled, mean operations per block. */
  eras: string;
}

/**
 * A full mainnet sync's duration at a measured rate in operations per second (the rate is assumed to
 * scale with operations, not blocks).
 */
export function projectMainnetSync(opsPerSecond: number): Projection {
  const eras = mainnetEras();
  const operations = eras.reduce((n, e) => n + e.blocks * e.opsPerBlock, 0);
  const parts = eras.map(
    (e) => `${e.name}: ${(e.blocks / 1e6).toFixed(2)}M blocks × ${e.opsPerBlock.toFixed(0)} ops (${e.recorded} seen)`,
  );
  return { operations, seconds: operations / opsPerSecond, eras: parts.join('; ') };
}

/**
 * The disk a full mainnet index takes, era by era: each era's blocks times the marginal bytes of the
 * tables that grow by a row per block (block, chain, supply…), plus its operations times the marginal
 * bytes per operation of all the others. Both from the same measured run (DiskGrowth).
 */
export function projectMainnetDisk(
  bytesPerBlock: number,
  bytesPerOp: number,
): { bytes: number; before2024: number; eras: string } {
  const eras = mainnetEras().map((e) => ({ ...e, bytes: e.blocks * (bytesPerBlock + e.opsPerBlock * bytesPerOp) }));
  return {
    bytes: eras.reduce((n, e) => n + e.bytes, 0),
    before2024: eras.filter((e) => e.first < TZINDEX_2023.before).reduce((n, e) => n + e.bytes, 0),
    eras: eras.map((e) => `${e.name} ${(e.bytes / 1e9).toFixed(1)} GB`).join(', '),
  };
}
