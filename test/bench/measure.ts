export interface BenchResult {
  name: string;
  seconds: number;
  rate?: number;
  unit?: string;
  /** Time relative to the baseline measured in the same run, or a figure relative to its budget. */
  ratio?: number;
  target?: number;
  /** A figure that is not a duration (memory, disk), printed instead of the seconds. */
  figure?: { value: number; unit: string };
  /** Targets that are not a ratio (a rate, a latency, a count); `met` undefined: not measured by this run. */
  checks?: { target: string; met: boolean | undefined }[];
}

/** How a result line ends: each target with met / NOT met. */
export function verdicts(r: BenchResult): string {
  const ratio =
    r.ratio !== undefined && r.target !== undefined
      ? [`target <= ${r.target}x: ${r.ratio <= r.target ? 'met' : 'NOT met'}`]
      : [];
  const checks = (r.checks ?? []).map(
    (c) => `target ${c.target}: ${c.met === undefined ? 'not measured by this run' : c.met ? 'met' : 'NOT met'}`,
  );
  return [...ratio, ...checks].map((v) => ` (${v})`).join('');
}

export async function time(fn: () => Promise<unknown>, runs: number): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = process.hrtime.bigint();
    await fn();
    out.push(seconds(t0));
  }
  return out;
}

/**
 * Times each function once a round, in turn, for `runs` rounds, and gives each one's median (seconds), in the
 * order given: a floor and the path measured against it see the same machine load, which a block of floors
 * followed by a block of measured runs does not.
 */
export async function interleaved(fns: readonly (() => Promise<unknown>)[], runs: number): Promise<number[]> {
  const samples = fns.map((): number[] => []);
  for (let i = 0; i < runs; i++) {
    for (const [k, fn] of fns.entries()) samples[k].push(...(await time(fn, 1)));
  }
  return samples.map(median);
}

export function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

/** Nearest-rank percentiles (`ps` in 0..1) of `xs`, sorted once. */
export function percentiles(xs: number[], ps: number[]): number[] {
  const s = Float64Array.from(xs).sort();
  return ps.map((p) => s[Math.min(s.length - 1, Math.max(0, Math.ceil(p * s.length) - 1))]);
}

/** Seconds since a `process.hrtime.bigint()` reading. */
export function seconds(start: bigint): number {
  return Number(process.hrtime.bigint() - start) / 1e9;
}

/** Bytes as whole MiB, for result names. */
export function mib(bytes: number): string {
  return (bytes / 2 ** 20).toFixed(0);
}
