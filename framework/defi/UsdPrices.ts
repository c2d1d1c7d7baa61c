import type { UsdQuotes } from './UsdQuotes';
import { mul, scaled, units } from './Decimal';
import { TEZ } from './TokenBook';

/**
 * USD prices of pool tokens at one moment, through the UsdQuotes contract, cached for one answer.
 * No quotes (none wired, or no price path) give null: USD fields are then null, never 0.
 */
export class UsdPrices {
  private readonly cache = new Map<string, Promise<bigint | null>>();
  private tez?: Promise<bigint | null>;

  constructor(
    private readonly quotes: UsdQuotes | undefined,
    private readonly at: Date,
  ) {}

  /** USD per whole unit of a token (`tez` or `KT1…_id`), 10^18-scaled. */
  perUnit(token: string): Promise<bigint | null> {
    let p = this.cache.get(token);
    if (!p) {
      p = this.compute(token);
      this.cache.set(token, p);
    }
    return p;
  }

  /** USD value of raw amounts of several tokens, 10^18-scaled; null when any price is missing. */
  async value(parts: ReadonlyArray<{ token: string; raw: bigint; decimals: number }>): Promise<bigint | null> {
    let sum = 0n;
    for (const p of parts) {
      const price = await this.perUnit(p.token);
      if (price === null) return null;
      sum += mul(units(p.raw, p.decimals), price);
    }
    return sum;
  }

  private async compute(token: string): Promise<bigint | null> {
    if (!this.quotes) return null;
    this.tez ??= this.quotes.tezUsd(this.at).then((v) => (v === null ? null : scaled(v)));
    const tezUsd = await this.tez;
    if (tezUsd === null) return null;
    if (token === TEZ) return tezUsd;
    const inTez = await this.quotes.tokenTez(token, this.at);
    return inTez === null ? null : mul(scaled(inTez), tezUsd);
  }
}
