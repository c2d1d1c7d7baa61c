/**
 * Exact decimal arithmetic for the DEX answers: raw token amounts are bigints, prices and USD values
 * are `fixed` decimal strings. Everything is done on integers scaled by 10^18 and truncated toward
 * zero, so an answer never depends on float rounding.
 */
export const SCALE = 18;
const ONE = 10n ** BigInt(SCALE);

/** A decimal string (`-1.25`) as an integer scaled by 10^18; digits past the 18th are dropped. */
export function scaled(text: string): bigint {
  const m = /^(-?)(\d+)(?:\.(\d*))?$/.exec(text.trim());
  if (!m) throw new Error(`not a decimal number: '${text}'`);
  const v = BigInt(m[2]) * ONE + BigInt((m[3] ?? '').padEnd(SCALE, '0').slice(0, SCALE) || '0');
  return m[1] === '-' ? -v : v;
}

/** A 10^18-scaled integer as a decimal string with `decimals` digits (truncated). */
export function decimal(v: bigint, decimals = SCALE): string {
  const negative = v < 0n;
  const digits = ((negative ? -v : v) / 10n ** BigInt(SCALE - decimals)).toString().padStart(decimals + 1, '0');
  const text = decimals > 0 ? `${digits.slice(0, -decimals)}.${digits.slice(-decimals)}` : digits;
  return negative && /[1-9]/.test(text) ? `-${text}` : text;
}

/** num/den as a 10^18-scaled integer; 0 when den is 0. */
export function ratio(num: bigint, den: bigint): bigint {
  return den === 0n ? 0n : (num * ONE) / den;
}

/** Product of two 10^18-scaled integers. */
export function mul(a: bigint, b: bigint): bigint {
  return (a * b) / ONE;
}

/** A raw token amount in whole units (decimals applied), 10^18-scaled. */
export function units(raw: bigint, decimals: number): bigint {
  return ratio(raw, 10n ** BigInt(decimals));
}

/** Price of one whole base unit in quote units from raw amounts, 10^18-scaled. */
export function unitPrice(baseRaw: bigint, baseDecimals: number, quoteRaw: bigint, quoteDecimals: number): bigint {
  return ratio(quoteRaw * 10n ** BigInt(baseDecimals), baseRaw * 10n ** BigInt(quoteDecimals));
}

/** Basis points of part/whole (10^18-scaled); 0 when whole is 0. */
export function bps(part: bigint, whole: bigint): bigint {
  return whole === 0n ? 0n : (part * 10_000n * ONE) / whole;
}

/** Floor of the square root of a non-negative integer (Newton's method from a float estimate). */
export function isqrt(n: bigint): bigint {
  if (n < 2n) return n;
  // Start above the root, then descend: each step stays >= the floor root until it is reached.
  const estimate = Math.sqrt(Number(n));
  let x = Number.isFinite(estimate) ? BigInt(Math.ceil(estimate * (1 + 1e-12))) + 1n : n;
  for (;;) {
    const y = (x + n / x) / 2n;
    if (y >= x) return x;
    x = y;
  }
}
