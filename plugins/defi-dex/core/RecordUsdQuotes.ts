import { batchKey, type IndexContext } from '../../../framework';
import { tables } from '../tables.generated';
import {
  type DexTokens,
  MarketUsdQuotes,
  tezPerToken,
  tezPools,
  type TezPoolRow,
  type UsdQuotes,
} from '../../../framework/defi';

/** Per batch: a token's pools against tez as the database held them when the batch began (their addresses). */
const STORED_TEZ_POOLS = batchKey('defi-dex.stored-tez-pools', () => new Map<string, Promise<string[]>>());
/**
 * Per batch: tez in USD by block time (market candles are written outside batches), and the time of the
 * first price: a backfill of blocks older than any candle asks nothing per block.
 */
const TEZ_USD = batchKey(
  'defi-dex.tez-usd',
  (): { byTime: Map<number, Promise<string | null>>; first?: Promise<Date | null> } => ({ byTime: new Map() }),
);

/**
 * UsdQuotes while indexing, for the USD values frozen into events and trades. Why not the read-time
 * MarketUsdQuotes over `ctx.read`: this batch's pool changes are in the entity cache, not yet in the
 * database, so a query would price a token from its pools as they were when the batch began (and find
 * none for a pool made in the batch): the values would depend on where batches start. Here pools are
 * read through the cache, as they are just before the action being recorded, and token decimals come
 * from DexTokens (the same cache). The pool addresses and tez prices are asked once per batch.
 */
export class RecordUsdQuotes implements UsdQuotes {
  private readonly markets: MarketUsdQuotes;

  constructor(
    private readonly ctx: IndexContext,
    has: (code: string) => boolean,
    private readonly tokens: DexTokens,
  ) {
    this.markets = new MarketUsdQuotes((code) => ctx.read(code), has);
  }

  tezUsd(at: Date): Promise<string | null> {
    const cache = this.ctx.state.get(TEZ_USD);
    let price = cache.byTime.get(at.getTime());
    if (!price) {
      const first = (cache.first ??= this.markets.firstTezUsdTime());
      price = first.then((t) => (t === null || at < t ? null : this.markets.tezUsd(at)));
      cache.byTime.set(at.getTime(), price);
    }
    return price;
  }

  async tokenTez(token: string, _at: Date): Promise<string | null> {
    if (token === 'tez') return '1';
    const pools = this.ctx.entities(tables.dex_pool, 'pool');
    const addresses = new Set(await this.storedTezPools(token));
    for (const p of pools.pending()) if (isTezPool(p, token)) addresses.add(String(p.pool));
    const rows: TezPoolRow[] = [];
    for (const address of addresses) {
      const row = await pools.get(address);
      if (row) rows.push(row);
    }
    if (rows.length === 0) return null;
    const [facts] = await this.tokens.facts(this.ctx, [token]);
    return tezPerToken(rows, token, facts.decimals);
  }

  private storedTezPools(token: string): Promise<string[]> {
    const cache = this.ctx.state.get(STORED_TEZ_POOLS);
    let addresses = cache.get(token);
    if (!addresses) {
      addresses = tezPools(this.ctx.read(tables.dex_pool), token)
        .select('pool')
        .then((rows: Array<{ pool: string }>) => rows.map((r) => r.pool));
      cache.set(token, addresses);
    }
    return addresses;
  }
}

const isTezPool = (p: Record<string, unknown>, token: string): boolean =>
  (p.token_c === null || p.token_c === undefined) &&
  ((p.token_a === token && p.token_b === 'tez') || (p.token_a === 'tez' && p.token_b === token));
