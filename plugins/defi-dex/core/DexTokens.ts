import type { IndexContext } from '../../../framework';
import type { DexTokenRef } from './DexAdapter';

export interface TokenFacts {
  /** `tez` or `KT1…_tokenId`, as the tables store tokens. */
  key: string;
  decimals: number;
  symbol: string;
}

/** A token reference as the tables name it. */
export function tokenKey(t: DexTokenRef): string {
  if (t.standard === 'tez') return 'tez';
  return `${t.contract}_${t.standard === 'fa2' ? t.tokenId : 0n}`;
}

/**
 * Decimals and symbols of pool tokens at record time: tez is XTZ with 6 decimals; FA tokens come from
 * the metadata plugin's `token` table when that plugin runs and knows them, else 0 decimals and the
 * contract address as symbol (prices are then in raw units; docs/defi-dex.md). Looked up once per batch.
 */
export class DexTokens {
  private cache = new Map<string, TokenFacts>();
  private batch?: unknown;

  /** Facts of tokens named as the tables name them (`tez`, `KT1…_id`). */
  async facts(ctx: IndexContext, keys: readonly string[]): Promise<TokenFacts[]> {
    if (this.batch !== ctx.read) {
      this.cache = new Map();
      this.batch = ctx.read;
    }
    const out: TokenFacts[] = [];
    for (const key of keys) {
      let hit = this.cache.get(key);
      if (!hit) this.cache.set(key, (hit = await this.lookup(ctx, key)));
      out.push(hit);
    }
    return out;
  }

  private async lookup(ctx: IndexContext, key: string): Promise<TokenFacts> {
    if (key === 'tez') return { key, decimals: 6, symbol: 'XTZ' };
    let row: { decimals?: unknown; symbol?: unknown } | undefined;
    try {
      row = await ctx.read('token').where('token_key', key).first('decimals', 'symbol');
    } catch {
      row = undefined; // The metadata plugin is not enabled.
    }
    const decimals = row?.decimals === null || row?.decimals === undefined ? 0 : Number(row.decimals);
    return { key, decimals: Number.isFinite(decimals) && decimals >= 0 && decimals <= 36 ? decimals : 0, symbol: typeof row?.symbol === 'string' && row.symbol ? row.symbol : key.split('_')[0] };
  }
}
