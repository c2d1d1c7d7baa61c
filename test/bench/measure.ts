export interface BenchResult {
  name: string;
  seconds: number;
  rate?: number;
  unit?: string;
  /** Time relative to the baseline measured in the same run. */
  ratio?: number;
  target?: number;
}

export async function time(fn: () => Promise<unknown>, runs: number): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = process.hrtime.bigint();
    await fn();
    out.push(Number(process.hrtime.bigint() - t0) / 1e9);
  }
  return out;
}

export function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}
