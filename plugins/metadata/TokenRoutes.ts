import { ApiError, explorerObject, parseAddress, RouteRegistry } from '../../framework';
import { ChainMetadata } from './ChainMetadata';

/** `/v1/tokens` and `/v1/tokens/{contract_tokenid}`: the token registry (TzPro SDK `token.Token`). */
export class TokenRoutes {
  constructor(private readonly chain: ChainMetadata) {}

  register(r: RouteRegistry): void {
    explorerObject(
      r,
      '/v1/tokens',
      'ListTokens',
      async (ctx) => {
        const q = ctx.query;
        for (const k of Object.keys(q))
          if (!['limit', 'offset', 'order', 'ledger'].includes(k)) throw ApiError.badQuery(`unknown parameter '${k}'`);
        const int = (k: string, def: number, max: number): number => {
          const v = q[k];
          if (v === undefined) return def;
          if (typeof v !== 'string' || !/^\d{1,9}$/.test(v)) throw ApiError.badQuery(`invalid ${k} '${String(v)}'`);
          return Math.min(Number(v), max);
        };
        const order = q.order ?? 'asc';
        if (order !== 'asc' && order !== 'desc') throw ApiError.badQuery(`invalid order '${String(order)}'`);
        const ledger = typeof q.ledger === 'string' ? parseAddress(q.ledger) : undefined;
        return {
          body: await this.chain.tokens({
            limit: int('limit', 100, 10_000),
            offset: int('offset', 0, 1e9),
            order,
            contract: ledger,
          }),
        };
      },
      { summary: 'the token registry' },
    );
    explorerObject(
      r,
      '/v1/tokens/:token',
      'GetToken',
      async (ctx) => {
        const m = /^(KT1[1-9A-HJ-NP-Za-km-z]{33})_(\d{1,76})$/.exec(ctx.params.token);
        if (!m) throw ApiError.malformedId(`invalid token '${ctx.params.token}': expected <contract>_<token id>`);
        const token = await this.chain.token(m[1], BigInt(m[2]));
        if (!token) throw ApiError.notFound('no such token');
        return { body: token };
      },
      { summary: 'a token of the registry', params: { table: 'token', columns: { token: 'token_key' } } },
    );
  }
}
