// Why: a series must count and sum exactly the rows its table lists (issue #51: /series/op counted
// contract events that /tables/op hides, /series/block left out orphans that /tables/block listed).
// Every catalog series is checked over random windows, collapses, fill modes, orders, limits and
// filters against an aggregation, done here, of the rows /tables returns for the same window and
// filter, on an indexed sandbox chain across reorgs.
import { expect } from 'chai';
import { ColumnDef, isFilterOnly, SeriesDef } from '../../framework/catalog/CatalogModel';
import { BoolType } from '../../framework/catalog/types/BoolType';
import { ColumnType } from '../../framework/catalog/types/ColumnType';
import { DecimalType } from '../../framework/catalog/types/DecimalType';
import { MoneyType } from '../../framework/catalog/types/MoneyType';
import { BUILTIN_PLUGIN_DIR } from '../../framework/app/TzidxApp';
import { discoverPlugins } from '../../framework/plugins/PluginDiscovery';
import { SandboxChain } from '../../framework/sandbox';
import { COLLAPSE_CODES } from '../../framework/series/Collapse';
import { SeriesRollups } from '../../framework/series/SeriesRollups';
import { seededRandom } from '../../framework/util/seededRandom';
import { indexSandbox } from '../support/IndexHarness';
import { BACKEND } from '../support/TestDatabase';
import { startTestInstance, TestInstance } from '../support/TestInstance';
import { Cell, diffRows, expectedSeries, Fill, Kind, kindOf, measuresOf, OracleRow, windowOf } from './SeriesOracle';

const FILLS: Fill[] = ['none', 'null', 'last', 'linear', 'zero'];
const MINUTE = 60_000;
/** Column types a random filter may use, by the type's name. */
const FILTERABLE = /^(enum\(|bool$|uint64$|int64$|money$|address$|string$)/;
/** Markets' own mount of its series (`/series/{exchange}/{market}/ohlcv`), for the candles written below. */
const MARKETS = ['kraken', 'bitstamp'];
const OPERATORS = ['eq', 'ne', 'gt', 'gte', 'lt', 'lte', 'in', 'nin', 'rg'];

type Rnd = () => number;
/** [from, to) in unix ms. */
type Span = [number, number];
/** A filter argument (`&column.op=values`) and what it names. */
interface Filter {
  arg: string;
  column: ColumnDef;
  op: string;
}
const pick = <T>(rnd: Rnd, items: readonly T[]): T => items[Math.floor(rnd() * items.length)];

/** A JSON cell of /tables as the oracle reads it: integers and mutez as bigint, decimals as exact text. */
function oracleValue(v: unknown, kind: Kind): unknown {
  if (v === null || v === undefined) return null;
  if (kind === 'money') return BigInt((v as number).toFixed(6).replace('.', ''));
  if (kind === 'int' || kind === 'bigint') return BigInt(v as number | string);
  if (typeof kind === 'object') return typeof v === 'number' ? v.toFixed(kind.fixed) : v;
  return v;
}

/** A JSON cell of /tables as a filter argument of the same column. */
function filterArg(v: unknown, type: ColumnType): string {
  if (type instanceof MoneyType) return (v as number).toFixed(6);
  if (type instanceof BoolType) return v ? '1' : '0';
  return String(v);
}

/** Expected decimal(n) cells are JSON numbers in the answer (fixed(n) ones are strings). */
function asAnswered(rows: Cell[][], series: SeriesDef): Cell[][] {
  const numeric = series.columns.map((c) => c.agg !== 'count' && c.source?.type instanceof DecimalType);
  const cell = (v: Cell, i: number): Cell => (numeric[i] && typeof v === 'string' ? Number(v) : v);
  return rows.map(([time, ...cells]) => [time, ...cells.map(cell)]);
}

async function json(t: TestInstance, url: string): Promise<{ rows: unknown[][]; source: string | null }> {
  const res = await t.get(url);
  const text = await res.text();
  expect(res.status, `${url}: ${text.slice(0, 300)}`).to.equal(200);
  return { rows: JSON.parse(text) as unknown[][], source: res.headers.get('x-series-source') };
}

/** Every row of a table in [from, to) under the filter, all pages, with the columns asked for. */
async function tableRows(
  t: TestInstance,
  series: SeriesDef,
  columns: string[],
  [from, to]: Span,
  filter: string,
): Promise<unknown[][]> {
  const out: unknown[][] = [];
  const time = series.timeColumn.name;
  const window = `${time}.gte=${from}&${time}.lt=${to}`;
  let cursor = '';
  for (;;) {
    const url = `/tables/${series.table.code}?columns=row_id,${columns}&${window}&limit=50000${filter}${cursor}`;
    const { rows } = await json(t, url);
    out.push(...rows);
    if (rows.length < 50000) return out;
    cursor = `&cursor=${rows[rows.length - 1][0]}`;
  }
}

/** A random filter on a column of the series' table, its value taken from a row of the window. */
async function randomFilter(t: TestInstance, rnd: Rnd, series: SeriesDef, window: Span): Promise<Filter | void> {
  const usable = (c: ColumnDef): boolean => FILTERABLE.test(c.type.name) && !isFilterOnly(c) && c.name !== 'row_id';
  const column = pick(rnd, series.table.columns.filter(usable));
  const hidden = column.hiddenValues?.map(String) ?? [];
  // Orphans are listed under a filter on their column: values are drawn from them too.
  const orphans = column.name === series.table.orphanColumn ? `&${column.name}.in=0,1` : '';
  const sample = await tableRows(t, series, [column.name], window, orphans);
  // A comma would split an `in` list: such values (free text) are not drawn.
  const values = sample.map((r) => r[1]).filter((v) => v !== null && !String(v).includes(','));
  if (values.length === 0) return undefined;
  const ops = OPERATORS.filter((op) => column.type.operators.includes(op as never));
  const op = pick(rnd, ops);
  const value = (): string => encodeURIComponent(filterArg(pick(rnd, values), column.type));
  // Hidden values (op type `event`) are named now and then: the table lists them only then.
  const named = (): string => (hidden.length > 0 && rnd() < 0.5 ? pick(rnd, hidden) : value());
  let args = [op === 'eq' ? named() : value()];
  if (op === 'rg') args = [value(), value()].sort((a, b) => Number(a) - Number(b));
  if (op === 'in' || op === 'nin') args = [named(), value()];
  return { arg: `&${column.name}${op === 'eq' ? '' : `.${op}`}=${args.join(',')}`, column, op };
}

describe(`every series equals the aggregation of its table's rows (${BACKEND})`, function () {
  this.timeout(900_000);
  const chain = new SandboxChain({ seed: 'series-table-agreement', profile: 'tiny' });
  let t: TestInstance;
  /** Times of the blocks at which the chain was reorganized: windows are drawn around them too. */
  const forks: number[] = [];

  before(async function () {
    chain.bake(200);
    t = await startTestInstance({ plugins: discoverPlugins([BUILTIN_PLUGIN_DIR]) });
    await indexSandbox(t, chain);
    // Candles are polled, not indexed: folded by the update the indexer's next batch would run.
    await t.insert('market_candle', candles((await span())[0]));
    // A market is served once it has a ticker (no venue is polled here).
    const ticker = { pair: 'XTZ_USD', base: 'XTZ', quote: 'USD', last: '1', timestamp: new Date() };
    await t.insert(
      'market_ticker',
      MARKETS.map((exchange) => ({ exchange, ...ticker })),
    );
    const rollups = t.app.container.resolve(SeriesRollups);
    await t.app.db.writer.transaction((trx) => rollups.update(trx));
  });
  after(async () => t?.close());

  async function span(): Promise<Span> {
    const { rows } = await json(t, '/tables/block?columns=time&is_orphan=0&limit=50000');
    return [rows[0][0] as number, rows[rows.length - 1][0] as number];
  }

  /** One random request per series and the same window and filter on its table. */
  async function check(series: SeriesDef, rnd: Rnd, chainSpan: Span): Promise<{ filtered: boolean }> {
    const collapse = pick(rnd, COLLAPSE_CODES);
    const [lo, hi] = chainSpan;
    const around = forks.length > 0 && rnd() < 0.5 ? pick(rnd, forks) : lo + rnd() * (hi - lo);
    const start = Math.round(around - rnd() * 20 * MINUTE);
    const end = Math.round(around + rnd() * 40 * MINUTE);
    const [from, to] = windowOf(collapse, 50000, start, end, 0);
    const filter = rnd() < 0.5 ? await randomFilter(t, rnd, series, [from, to]) : undefined;
    const market = series.code === 'market_ohlcv' && !filter && rnd() < 0.5 ? pick(rnd, MARKETS) : undefined;
    const path = market ? `&exchange=${market}&pair=XTZ_USD` : '';
    const fill = pick(rnd, FILLS);
    const order = rnd() < 0.5 ? 'asc' : 'desc';
    const limit = rnd() < 0.3 ? 1 + Math.floor(rnd() * 5) : 50000;
    const measures = measuresOf(series);
    const named = measures.flatMap((m) => [m.source, m.weight]).filter((c): c is string => c !== undefined);
    const sources = [...new Set(named)];
    const columns = [series.timeColumn.name, ...sources];
    // The rows the series keeps by its own conditions (`where`: the DEX's priced trades); no filter of its own to
    // leave out what the table does not list (orphans, events): the same request.
    const own = series.where.map((w) => `&${w.column.name}.${w.op}=${encodeURIComponent(String(w.value))}`).join('');
    const raw = await tableRows(t, series, columns, [from, to], `${filter?.arg ?? ''}${path}${own}`);
    const rows: OracleRow[] = raw.map(([id, time, ...values]) => {
      const row: OracleRow = { row_id: Number(id), time: time as number };
      sources.forEach((c, i) => (row[c] = oracleValue(values[i], kindOf(series.table.column(c)!.type))));
      return row;
    });
    const dates = `start_date=${new Date(start).toISOString()}&end_date=${new Date(end).toISOString()}`;
    const shape = `collapse=${collapse}&${dates}&fill=${fill}&order=${order}&limit=${limit}`;
    const mount = market ? `/series/${market}/XTZ_USD/ohlcv` : `/series/${series.code}`;
    const url = `${mount}?${shape}${filter?.arg ?? ''}`;
    const got = await json(t, url);
    const expected = asAnswered(expectedSeries(rows, measures, { collapse, from, to, order, limit, fill }), series);
    const diff = diffRows(got.rows, expected);
    if (diff) expect.fail(`${url} (${rows.length} table rows): ${diff}`);
    const orphan = series.table.orphanColumn;
    // What the rollups hold: no filter, a partition, or the main chain (`is_orphan=0`, the table's default).
    const mainChain = filter?.column.name === orphan && filter?.op === 'eq' && /=(0|false)$/.test(filter.arg);
    const partition = filter?.op === 'eq' && series.partition.includes(filter.column);
    const rollup = filter === undefined || mainChain || partition;
    expect(got.source, url).to.match(rollup ? /^rollup:1[mhd]$/ : /^raw$/);
    return { filtered: filter !== undefined };
  }

  /** Over the whole chain: a series' `count` summed, and the rows its table lists, under one filter. */
  async function counts(code: string, filter: string): Promise<[number, number]> {
    const [lo, hi] = await span();
    const dates = `start_date=${new Date(lo).toISOString()}&end_date=${new Date(hi).toISOString()}`;
    const { rows } = await json(t, `/series/${code}?collapse=1h&columns=count&${dates}&limit=50000${filter}`);
    const series = t.app.catalog.series.get(code)!;
    const listed = await tableRows(t, series, ['height'], windowOf('1h', 50000, lo, hi, 0), filter);
    return [rows.reduce((n, r) => n + (r[1] as number), 0), listed.length];
  }

  it('op (issue #51): over the types /tables/op leaves out, the series counts what it lists', async function () {
    const op = t.app.catalog.series.get('op')!;
    const [lo, hi] = await span();
    const types = await tableRows(t, op, ['type'], windowOf('1h', 50000, lo, hi, 0), '');
    const shown = [...new Set(types.map((r) => r[1]))];
    const [all, listed] = await counts('op', '');
    expect(all).to.equal(listed);
    expect(await counts('op', `&type.nin=${shown}`)).to.deep.equal([0, 0]);
    const [events, eventRows] = await counts('op', '&type=event');
    expect(eventRows, 'contract events on the chain').to.be.greaterThan(0);
    expect(events).to.equal(eventRows);
    expect(await counts('op', `&type.in=event,${shown}`)).to.deep.equal([all + events, listed + eventRows]);
  });

  const rounds = ['indexed', 'after a reorg of 2', 'after a reorg of 1 and 6 blocks', 'after a reorg of 2 and 1 block'];
  rounds.forEach((round, r) => {
    it(`${round}: random requests of every series agree with their tables, rollup and raw path`, async function () {
      if (r > 0) {
        const depth = Number(/reorg of (\d)/.exec(round)![1]);
        const more = Number(/and (\d+) block/.exec(round)?.[1] ?? 0);
        chain.reorg(depth);
        chain.bake(more);
        await indexSandbox(t, chain);
        const fork = chain.headLevel - more - depth + 1;
        forks.push((await json(t, `/tables/block?columns=time&height=${fork}&is_orphan=0`)).rows[0][0] as number);
      }
      const chainSpan = await span();
      const seen = { filtered: 0, unfiltered: 0 };
      for (const series of t.app.catalog.series.values()) {
        const rnd = seededRandom(1000 * r + series.code.length * 7919 + series.code.charCodeAt(0));
        for (let i = 0; i < 12; i++) {
          const { filtered } = await check(series, rnd, chainSpan);
          seen[filtered ? 'filtered' : 'unfiltered']++;
        }
      }
      expect(seen.filtered, 'filtered requests').to.be.greaterThan(10);
      expect(seen.unfiltered, 'unfiltered requests').to.be.greaterThan(10);
    });
  });

  it('block (issue #51): after reorgs, series and table count the same blocks under is_orphan filters', async () => {
    const [main, mainRows] = await counts('block', '');
    expect(main).to.equal(mainRows);
    expect(await counts('block', '&is_orphan=0')).to.deep.equal([main, mainRows]);
    const [orphans, orphanRows] = await counts('block', '&is_orphan=1');
    expect(orphanRows, 'orphaned blocks after the reorgs').to.be.greaterThan(0);
    expect(orphans).to.equal(orphanRows);
    expect(await counts('block', '&is_orphan.in=0,1')).to.deep.equal([main + orphans, mainRows + orphanRows]);
    expect(await counts('block', '&is_orphan.ne=0')).to.deep.equal([orphans, orphanRows]);
  });
});

/** 1-minute candles of two markets over the chain's first hour, some values missing. */
function candles(from: number): Array<Record<string, unknown>> {
  const rnd = seededRandom(51);
  const start = Math.floor(from / MINUTE) * MINUTE;
  const dec = (lo: number, hi: number, places: number): string => (lo + rnd() * (hi - lo)).toFixed(places);
  const maybe = <T>(v: T): T | null => (rnd() < 0.15 ? null : v);
  return MARKETS.flatMap((exchange) =>
    Array.from({ length: 60 }, (_, m) => m)
      .filter(() => rnd() < 0.7)
      .map((m) => ({
        exchange,
        pair: 'XTZ_USD',
        time: new Date(start + m * MINUTE),
        open: dec(0.5, 1, 6),
        high: dec(1, 1.5, 6),
        low: dec(0.3, 0.5, 6),
        close: dec(0.5, 1, 6),
        vwap: maybe(dec(0.5, 1, 10)),
        n_trades: maybe(Math.floor(rnd() * 300)),
        n_buy: maybe(Math.floor(rnd() * 100)),
        n_sell: maybe(Math.floor(rnd() * 100)),
        vol_base: maybe(dec(0, 5000, 8)),
        vol_quote: maybe(dec(0, 4000, 8)),
        vol_buy_base: maybe(dec(0, 100, 8)),
        vol_buy_quote: null,
        vol_sell_base: maybe(dec(0, 100, 8)),
        vol_sell_quote: maybe(dec(0, 100, 8)),
      })),
  );
}
