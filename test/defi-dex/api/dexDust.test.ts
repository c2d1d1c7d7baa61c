// Why: candles, prices and tickers come from the catalog series `dex_trades`, whose own `where` leaves
// out dust trades (one side rounded to zero: no price). Dust written after the fixture, with prices
// of 0 and far above every real one, must change none of the answers, on the rollup path too; a
// priced trade written the same way must change them (so the comparison can fail).
import { expect } from 'chai';
import { SeriesRollups } from '../../../framework/series/SeriesRollups';
import { BACKEND } from '../../support/TestDatabase';
import type { TestInstance } from '../../support/TestInstance';
import { DexFixture, POOL1 } from '../support/DexFixture';
import { Json, json } from '../support/DexOracle';
import { startDexInstance } from './dexSetup';

const PATHS = [
  `/v1/dex/${POOL1}/candles?interval=h&range=24h`,
  `/v1/dex/${POOL1}/candles?interval=d&range=M`,
  `/v1/dex/${POOL1}/prices?interval=h&range=24h&select=open,high,low,close,vwap,vol_base,vol_quote&fill=linear`,
  `/v1/dex/${POOL1}/ticker`,
];

describe(`DEX API: dust trades carry no price (${BACKEND})`, function () {
  this.timeout(300_000);
  let t: TestInstance;
  let f: DexFixture;

  before(async () => ({ t, f } = await startDexInstance()));
  after(() => t?.close());

  /** Every answer, the ticker without its window times (they follow the clock). */
  const answers = async (): Promise<unknown[]> =>
    Promise.all(
      PATHS.map(async (p) => {
        const body = await json(t, p);
        if (!p.endsWith('/ticker')) return body;
        const { open_time: _o, close_time: _c, ...rest } = body as Json;
        return rest;
      }),
    );

  /** A copy of POOL1's latest trade a minute later, with other volumes and price, after the table's last row id. */
  const tradeLike = async (base: bigint, quote: bigint, price: string) => {
    const last = f.trades.filter((tr) => tr.pool === POOL1).at(-1)!;
    const table = t.app.catalog.require('dex_trade');
    const [{ id }] = (
      await t.app.db.writer.raw(`select max(row_id)::int as id from "${table.schema}"."${table.storage}"`)
    ).rows;
    const time = new Date((last.time as Date).getTime() + 60_000);
    return { ...last, row_id: id + 1, counter: id + 1, base_volume: base, quote_volume: quote, price_net: price, time };
  };
  const fold = () => t.app.db.writer.transaction((trx) => t.app.container.resolve(SeriesRollups).update(trx));

  it('leaves out dust trades (raw tail and rollups); a priced trade counts', async () => {
    const before = await answers();
    await t.insert('dex_trade', [await tradeLike(0n, 5n, '0')]);
    await t.insert('dex_trade', [await tradeLike(7n, 0n, '999999999.000000000000000000')]);
    expect(await answers(), 'dust in the raw tail').to.deep.equal(before);
    await fold();
    // The pool's buckets now come from the rollups (the series' pool and side partitions).
    const series = await t.get(`/series/dex_trades?pool=${POOL1}&side=buy&collapse=1h`);
    expect(series.headers.get('x-series-source')).to.equal('rollup:1h');
    expect(await answers(), 'dust after the rollups folded it').to.deep.equal(before);
    await t.insert('dex_trade', [await tradeLike(7n, 5n, '999999999.000000000000000000')]);
    const after = await answers();
    PATHS.forEach((p, i) => expect(after[i], p).not.to.deep.equal(before[i]));
  });
});
