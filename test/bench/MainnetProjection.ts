import { listFixtures, readFixtureJson } from '../support/fixtures';

/**
 * Mainnet's consensus eras, split where the number of operations per block changes most (attestation
 * slots and their packing). First levels from the protocol activation table (tzgo `protocols.go`):
 * Granada 1,589,249 (256 slots), Ithaca 2,244,609 (Tenderbake), Tallinn 11,640,289 (aggregated
 * attestations), Ushuaia 13,857,889 (the newest activation known here, where the projection stops).
 */
const ERAS = [
  { name: 'Emmy, 32 slots', first: 1 },
  { name: 'Emmy, 256 slots', first: 1_589_249 },
  { name: 'Tenderbake to Seoul', first: 2_244_609 },
  { name: 'Tallinn', first: 11_640_289 },
];
const END = 13_857_889;

interface RecordedBlock {
  header: { level: number };
  operations?: { contents: unknown[] }[][];
}

export interface Projection {
  /** Operations (contents of groups) of the whole chain to END. */
  operations: number;
  seconds: number;
  /** Per era: blocks, recorded blocks sampled, mean operations per block. */
  eras: string;
}

/**
 * A full mainnet sync's duration at a measured rate in operations per second: each era's blocks times
 * the mean operation count of the real mainnet blocks recorded in the shared fixtures for that era
 * (a handful per era, so a rough figure; the rate is assumed to scale with operations, not blocks).
 */
export function projectMainnetSync(opsPerSecond: number): Projection {
  const samples = [...listFixtures('tezos-rpc', 'blocks', 'mainnet'), ...listFixtures('tezos-rpc', 'blocks', 'legacy-pre-ithaca', 'mainnet')]
    .map((file) => readFixtureJson<RecordedBlock>(file))
    .filter((b) => b.header.level > 0 && b.operations);
  let operations = 0;
  const parts: string[] = [];
  ERAS.forEach((era, i) => {
    const next = ERAS[i + 1]?.first ?? END;
    const inEra = samples.filter((b) => b.header.level >= era.first && b.header.level < next);
    if (inEra.length === 0) throw new Error(`no recorded mainnet block in era ${era.name}`);
    const mean = inEra.reduce((n, b) => n + b.operations!.flat().reduce((m, g) => m + g.contents.length, 0), 0) / inEra.length;
    operations += (next - era.first) * mean;
    parts.push(`${era.name}: ${((next - era.first) / 1e6).toFixed(2)}M blocks × ${mean.toFixed(0)} ops (${inEra.length} recorded)`);
  });
  return { operations, seconds: operations / opsPerSecond, eras: parts.join('; ') };
}
