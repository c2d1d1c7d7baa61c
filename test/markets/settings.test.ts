import { expect } from 'chai';
import { DEFAULTS } from '../../framework/config/InstanceConfig';
import { marketsSettings } from '../../plugins/markets/MarketsSettings';
import { ADAPTERS } from '../../plugins/markets/venues/registry';

describe('markets: settings from the instance config', function () {
  it('offline (no --rpc): only the simulated Kraken', function () {
    const s = marketsSettings({ ...DEFAULTS });
    expect(s).to.include({ simulated: true, enabled: true });
    expect(s.venues.map((v) => v.code)).to.deep.equal(['kraken']);
  });

  it('with a node: every known venue, or the configured list; enabled: false; backfill hours', function () {
    const rpc = 'http://node:8732';
    expect(marketsSettings({ ...DEFAULTS, rpc }).venues).to.have.length(ADAPTERS.length);
    const s = marketsSettings({
      ...DEFAULTS,
      rpc,
      markets: { exchanges: ['binance', 'kraken'], enabled: false, backfillHours: 2 },
    });
    expect(s.venues.map((v) => v.code)).to.deep.equal(['kraken', 'binance']);
    expect(s).to.include({ enabled: false, simulated: false });
    expect(s.schedule.backfillMs).to.equal(2 * 3_600_000);
  });

  it('an unknown exchange stops the start-up with the known list', function () {
    expect(() => marketsSettings({ ...DEFAULTS, rpc: 'http://n', markets: { exchanges: ['mtgox'] } })).to.throw(
      /unknown exchange\(s\) mtgox; known: kraken, coinbasepro/,
    );
  });
});
