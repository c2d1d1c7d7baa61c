import { Context } from 'koa';
import { pathFilter, RouteRegistry } from '../../../framework';
import { MarketViews } from './MarketViews';

/** Exchange codes are lower case, market codes upper case (`kraken`, `XTZ_USD`); either case is accepted. */
function params(ctx: Context): { exchange: string; pair: string } {
  return { exchange: String(ctx.params.exchange).toLowerCase(), pair: String(ctx.params.market ?? '').toUpperCase() };
}

/** Valid exchange and market codes are those with a ticker (for /openapi.json and its clients). */
const MARKET = { params: { table: 'market_ticker', columns: { exchange: 'exchange', market: 'pair' } } };

/**
 * The Markets endpoints of the spec, and the OHLCV series of one market through the generic series
 * engine (collapse, fill, columns, limits, CSV exactly as /series), filtered on exchange and pair.
 */
export function registerMarketRoutes(r: RouteRegistry, views: MarketViews): void {
  r.object('/markets', 'ListMarkets', async () => ({ body: await views.exchanges() }), {
    summary: 'the exchanges and their markets',
  });
  r.object('/markets/tickers', 'ListTickers', async () => ({ body: await views.tickers() }), {
    summary: 'the tickers of every market',
  });
  r.object('/markets/:exchange', 'GetExchange', async (ctx) => ({ body: await views.exchange(params(ctx).exchange) }), {
    summary: 'an exchange and its markets',
    params: { table: 'market_ticker', columns: { exchange: 'exchange' } },
  });
  r.object(
    '/markets/:exchange/:market',
    'GetMarket',
    async (ctx) => {
      const { exchange, pair } = params(ctx);
      return { body: await views.market(exchange, pair) };
    },
    { summary: 'a market', ...MARKET },
  );
  r.object(
    '/markets/:exchange/:market/ticker',
    'GetTicker',
    async (ctx) => {
      const { exchange, pair } = params(ctx);
      return { body: await views.ticker(exchange, pair) };
    },
    { summary: 'the ticker of a market', ...MARKET },
  );
  r.seriesAt('/series/:exchange/:market/ohlcv{.:format}', 'StreamSeries', 'market_ohlcv', {
    filters: (ctx, table) => {
      const { exchange, pair } = params(ctx);
      return [pathFilter(table, 'exchange', exchange), pathFilter(table, 'pair', pair)];
    },
    before: async (ctx) => {
      const { exchange, pair } = params(ctx);
      await views.resolve(exchange, pair);
    },
    doc: { summary: 'OHLCV candles of a market', ...MARKET },
  });
}
