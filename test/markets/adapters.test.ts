import { expect } from 'chai';
import nock, { interceptHttpInSuite } from '../chain/support/nock';
import { CandleRecord, TickerRecord } from '../../plugins/markets/Records';
import { DEFAULT_CLIENT_OPTIONS, VenueClient } from '../../plugins/markets/poll/VenueClient';
import { ADAPTERS } from '../../plugins/markets/venues/registry';
import { venueSymbol } from '../../plugins/markets/venues/Symbols';
import { venueFixtures } from './VenueFixtures';

const NOW = new Date('2024-03-13T12:00:00Z');
const SINCE = Date.parse('2024-03-13T10:00:00Z');

/** Expected values, read off the recorded bodies by hand; `≈x` compares a computed quotient to 1e-12. */
type Expect = Record<string, string | number | bigint | null>;

const TICKERS: Record<string, Expect> = {
  kraken: {
    last: '73380.6',
    open: '71450.7',
    high: '73580',
    low: '68666',
    vwap: '71501.5752',
    n_trades: 21103n,
    volume_base: '598.03698452',
    volume_quote: '42760586.421038015904',
    change: '≈2.7010232230055128',
    timestamp: NOW.getTime(),
  },
  coinbasepro: {
    last: '73367.8',
    open: null,
    high: null,
    low: null,
    change: null,
    vwap: null,
    n_trades: null,
    volume_base: '1207.50668151',
    volume_quote: null,
    timestamp: Date.parse('2024-03-13T11:10:41.270Z'),
  },
  binance: {
    last: '0.018761',
    open: '0.018921',
    high: '0.018976',
    low: '0.0187',
    change: '-0.846',
    vwap: '0.01882262',
    n_trades: 30612n,
    volume_base: '92105.72',
    volume_quote: '1733.6713615',
    timestamp: 1521826338547,
  },
  bitfinex: {
    last: '73350',
    open: '72347',
    high: '73583',
    low: '68643',
    change: '1.386374',
    vwap: null,
    n_trades: null,
    volume_base: '2638.4314844',
    volume_quote: null,
    timestamp: NOW.getTime(),
  },
  bitstamp: {
    last: '73285',
    open: '72144',
    high: '73656',
    low: '68626',
    change: '1.58',
    vwap: '70853',
    n_trades: null,
    volume_base: '135.29692054',
    volume_quote: '9586192.71102062',
    timestamp: 1710328241000,
  },
  okex: {
    last: '9999.99',
    open: '9000',
    high: '10000',
    low: '8888.88',
    change: '≈11.111',
    vwap: '1',
    volume_base: '2222',
    volume_quote: '2222',
    timestamp: 1597026383085,
  },
  gateio: {
    last: '2.46140352',
    open: '2.7021665605',
    high: '2.7431',
    low: '1.9863',
    change: '-8.91',
    vwap: '≈2.4401268603666713',
    volume_base: '656614.0845820589',
    volume_quote: '1602221.66468375534639404191',
    timestamp: NOW.getTime(),
  },
  huobi: {
    last: '49820.92',
    open: '50080',
    high: '50500',
    low: '48767',
    change: '≈-0.51733226837060703',
    vwap: '≈49651.074832397435',
    n_trades: 420573n,
    volume_base: '12055.365781937457',
    volume_quote: '598561868.5709001',
    timestamp: 1629788763750,
  },
  kucoin: {
    last: '67400',
    open: '66802.1',
    high: '67978.8',
    low: '66541.4',
    change: '0.89',
    vwap: '≈67244.868498531856',
    n_trades: null,
    volume_base: '6442.17728633',
    volume_quote: '433203364.463489651',
    timestamp: 1709897710012,
  },
  upbit: {
    last: '73578.655',
    open: '71126.14598036',
    high: '73831.69765763',
    low: '70857.00039906',
    change: '≈3.4481117820122141',
    vwap: '≈71930.324951600065',
    volume_base: '7.03935349',
    volume_quote: '506342.98398488',
    timestamp: 1710328237828,
  },
};

/** The first (oldest) candle after mapping, and how many candles the body yields. */
const CANDLES: Record<string, { n: number; first: Expect }> = {
  kraken: {
    n: 5,
    first: {
      time: 1706626800000,
      open: '43437.5',
      high: '43593.7',
      low: '43355.5',
      close: '43361.1',
      vwap: '43511.3',
      n_trades: 162n,
      vol_base: '18.7543011',
      vol_quote: '816024.02145243',
    },
  },
  coinbasepro: {
    n: 1,
    first: {
      time: 1710327600000,
      open: '73243.33',
      high: '73402.47',
      low: '73241.5',
      close: '73370.65',
      vwap: null,
      n_trades: null,
      vol_base: '1.56794406',
      vol_quote: null,
    },
  },
  binance: {
    n: 1,
    first: {
      time: 1624559520000,
      open: '34970.9',
      high: '35047.03',
      low: '34800.01',
      close: '35047.03',
      n_trades: 37n,
      vol_base: '0.419472',
      vol_quote: '14686.8781947',
      vwap: '≈35012.773664749971',
      vol_sell_base: '0.413917',
      vol_sell_quote: '14492.8555502',
      vol_buy_base: '0.005555',
      vol_buy_quote: '194.0226445',
      n_buy: null,
      n_sell: null,
    },
  },
  bitfinex: {
    n: 1,
    first: {
      time: 1552298400000,
      open: '3870.1',
      close: '3890',
      high: '3890',
      low: '3870.1',
      vol_base: '0.05',
      vwap: null,
    },
  },
  bitstamp: {
    n: 1,
    first: {
      time: 1710327600000,
      open: '73241',
      high: '73293',
      low: '73240',
      close: '73285',
      vol_base: '0.01076655',
      vol_quote: null,
    },
  },
  okex: {
    n: 2,
    first: {
      time: 1747093980000,
      open: '102806',
      high: '102820.5',
      low: '102783.1',
      close: '102806.1',
      vol_base: '7164.04',
      vol_quote: '7364701.57952',
      vwap: '≈1028.0095559935455',
    },
  },
  gateio: {
    n: 1,
    first: {
      time: 1539852480000,
      open: '0.0021737',
      high: '0.0021922',
      low: '0.0021724',
      close: '0.0021724',
      vol_quote: '971519.677',
      vol_base: null,
      vwap: null,
    },
  },
  huobi: {
    n: 2,
    first: {
      time: 1629768900000,
      open: '48994.61',
      close: '49056.37',
      low: '48966.72',
      high: '49072.46',
      vol_base: '30.72223099519689',
      vol_quote: '1505870.732227976',
      n_trades: 1504n,
    },
  },
  kucoin: {
    n: 3,
    first: {
      time: 1706630400000,
      open: '43383.7',
      close: '43501',
      high: '43521.9',
      low: '43222.8',
      vol_base: '101.30420492',
      vol_quote: '4391287.808186813',
      vwap: '≈43347.537366831081',
    },
  },
  bitvavo: {
    n: 5,
    first: {
      time: 1702353840000,
      open: '38743',
      high: '38743',
      low: '38743',
      close: '38743',
      vol_base: '0.3114',
      vol_quote: null,
    },
  },
  upbit: {
    n: 1,
    first: {
      time: 1710327600000,
      open: '72738.58583492',
      high: '73578.657',
      low: '72738.58583492',
      close: '73578.655',
      vol_base: '0.02284923',
      vol_quote: '1669.08358949',
      vwap: '≈73047.695239183115',
    },
  },
};

function check(actual: Record<string, unknown>, expected: Expect, what: string): void {
  for (const [k, e] of Object.entries(expected)) {
    const a = actual[k] instanceof Date ? (actual[k] as Date).getTime() : actual[k];
    if (typeof e === 'string' && e.startsWith('≈')) {
      const want = Number(e.slice(1));
      expect(Math.abs(Number(a) - want), `${what}.${k}: ${String(a)} vs ${e}`).to.be.lessThan(
        1e-9 * Math.max(1, Math.abs(want)),
      );
    } else expect(a, `${what}.${k}`).to.equal(e);
  }
}

describe('markets: venue adapters on recorded bodies (nock)', function () {
  interceptHttpInSuite();
  const fixtures = venueFixtures();
  const controller = new AbortController();

  it('covers every registered venue, at least 8', function () {
    expect(ADAPTERS.length).to.be.at.least(8);
    expect(Object.keys(fixtures).sort()).to.deep.equal(ADAPTERS.map((a) => a.code).sort());
  });

  for (const [code, fx] of Object.entries(fixtures)) {
    const a = fx.adapter;
    const quote = a.quotes[0];
    const symbol = venueSymbol(code, quote);

    if (fx.ticker !== undefined) {
      it(`${code}: the ticker maps to the hand-read values`, async function () {
        const scope = nock(a.baseUrl)
          .get(a.tickerPath(symbol))
          .reply(200, fx.ticker as object);
        const client = new VenueClient(a.baseUrl, 0, DEFAULT_CLIENT_OPTIONS, controller.signal);
        const t: TickerRecord = await client.get(a.tickerPath(symbol), (b) => a.parseTicker(b, NOW));
        scope.done();
        check(t as unknown as Record<string, unknown>, TICKERS[code], `${code} ticker`);
      });
    }

    it(`${code}: candles map to the hand-read values, ascending, open minutes dropped`, async function () {
      const path = a.candlesPath(symbol, SINCE, NOW.getTime());
      const scope = nock(a.baseUrl)
        .get(path)
        .reply(200, fx.candles as object);
      const client = new VenueClient(a.baseUrl, 0, DEFAULT_CLIENT_OPTIONS, controller.signal);
      const candles: CandleRecord[] = await client.get(path, (b) => a.parseCandles(b));
      scope.done();
      expect(candles).to.have.length(CANDLES[code].n);
      check(candles[0] as unknown as Record<string, unknown>, CANDLES[code].first, `${code} candle`);
      for (let i = 1; i < candles.length; i++) expect(candles[i].time).to.be.greaterThan(candles[i - 1].time);
    });
  }

  it("symbols follow each venue's conventions (XBT, UST, quote first, lower case)", function () {
    expect(venueSymbol('kraken', 'BTC')).to.equal('XTZXBT');
    expect(venueSymbol('bitfinex', 'USDT')).to.equal('tXTZUST');
    expect(venueSymbol('upbit', 'BTC')).to.equal('BTC-XTZ');
    expect(venueSymbol('huobi', 'USDT')).to.equal('xtzusdt');
    expect(venueSymbol('gateio', 'USDT')).to.equal('XTZ_USDT');
    expect(venueSymbol('coinbasepro', 'USD')).to.equal('XTZ-USD');
  });
});
