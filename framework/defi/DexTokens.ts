import type { IndexContext } from '../index';
import type { DefiTokenRef as DexTokenRef } from './DefiAdapter';

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
 * contract address as symbol (prices are then in raw units; docs/defi-dex.md).
 */
export class DexTokens {
  /** Facts of tokens named as the tables name them (`tez`, `KT1…_id`). */
  async facts(ctx: IndexContext, keys: readonly string[]): Promise<TokenFacts[]> {
    const out: TokenFacts[] = [];
    for (const key of keys) out.push(await this.lookup(ctx, key));
    return out;
  }

  private async lookup(ctx: IndexContext, key: string): Promise<TokenFacts> {
    if (key === 'tez') return { key, decimals: 6, symbol: 'XTZ' };
    let row: { decimals?: unknown; symbol?: unknown } | undefined;
    try {
      // Through the batch's entity cache (which holds this batch's writes too), not a query: the
      // answer must not depend on where batches start.
      row = (await ctx.entities('token', 'token_key').get(key)) as { decimals?: unknown; symbol?: unknown } | undefined;
    } catch {
      row = undefined; // The metadata plugin is not enabled.
    }
    const decimals = row?.decimals === null || row?.decimals === undefined ? 0 : Number(row.decimals);
    return {
      key,
      decimals: Number.isFinite(decimals) && decimals >= 0 && decimals <= 36 ? decimals : 0,
      symbol: typeof row?.symbol === 'string' && row.symbol ? row.symbol : key.split('_')[0],
    };
  }
}
