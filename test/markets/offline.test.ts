import { expect } from 'chai';
import { MarketsService } from '../../plugins/markets/MarketsService';
import { TestInstance } from '../support/TestInstance';
import { startMarketsInstance } from './MarketsInstance';

/**
 * The offline demo path: without --rpc the plugin starts the simulated exchange (Kraken's REST shape,
 * a seeded random walk) and the unchanged Kraken adapter polls it into the tables.
 */
describe('markets: offline, the simulated exchange feeds tickers and candles', function () {
  let t: TestInstance;
  let service: MarketsService;

  before(async function () {
    ({ t, service } = await startMarketsInstance());
    await service.start();
  });
  after(async function () {
    await service?.stop();
    await t?.close();
  });

  async function until<T>(what: string, probe: () => Promise<T | undefined>): Promise<T> {
    for (let i = 0; i < 300; i++) {
      const v = await probe();
      if (v !== undefined) return v;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`no ${what} after 30 s`);
  }

  it('serves /markets/tickers and /series/kraken/XTZ_USD/ohlcv with data', async function () {
    const tickers = await until('tickers', async () => {
      const list = (await (await t.get('/markets/tickers')).json()) as Array<Record<string, unknown>>;
      return list.length === 4 ? list : undefined;
    });
    expect(tickers.map((x) => `${x.exchange}/${x.pair}`)).to.deep.equal([
      'kraken/XTZ_BTC',
      'kraken/XTZ_ETH',
      'kraken/XTZ_EUR',
      'kraken/XTZ_USD',
    ]);
    for (const x of tickers) {
      expect(x.last, JSON.stringify(x)).to.be.a('number').greaterThan(0);
      expect(Number(x.low)).to.be.at.most(Number(x.high));
      expect(x.timestamp).to.match(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    }
    const rows = await until('candles', async () => {
      const r = (await (await t.get('/series/kraken/XTZ_USD/ohlcv')).json()) as number[][];
      return r.length > 100 ? r : undefined;
    });
    for (const row of rows) {
      const [, open, high, low, close] = row;
      expect(low).to.be.at.most(Math.min(open, close));
      expect(high).to.be.at.least(Math.max(open, close));
    }
    const status = (await (await t.get('/markets/kraken')).json()) as { source: string; status: string };
    expect(status).to.include({ source: 'simulated', status: 'ok' });
  });
});
