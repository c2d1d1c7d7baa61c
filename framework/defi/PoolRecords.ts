import { KeyResolver, listQueryDoc, OBJECT_LIST_PROFILE, QueryParamDoc, RecordShaper, RouteDoc } from '../index';
import type { UsdQuotes } from './UsdQuotes';
import type { TextRow } from './DexTable';
import { UsdPrices } from './UsdPrices';

export { WITH_CLOSED } from '../index';
export const WALLET_PARAM: RouteDoc['params'] = { table: 'account', columns: { addr: 'address' } };
export const LIST_QUERY: QueryParamDoc[] = listQueryDoc(OBJECT_LIST_PROFILE);

/** What the record shapers need of an area's pool book. */
export interface PoolDirectory<Info> {
  /** The pool of a path (400 when malformed, 404 when unknown). */
  require(pool: string): Promise<{ address: string }>;
  infos(pools: readonly string[]): Promise<Map<string, Info>>;
  /** Pool rows with their tokens, by pool address (in the rows' order). */
  withTokens(rows: readonly TextRow[]): Promise<Map<string, Info>>;
  /** What a row whose pool has no pool row shows. */
  unknown(row: TextRow): Info;
}

/** A record of a row with its pool's info, USD values at the answer's prices. */
export type RowRecord<Info> = (
  row: TextRow,
  pool: Info,
  usd: UsdPrices,
) => Record<string, unknown> | Promise<Record<string, unknown>>;
/** A record of a pool, USD values at the answer's prices. */
export type PoolRecord<Info> = (pool: Info, usd: UsdPrices) => Promise<Record<string, unknown>>;

/**
 * The code behind the declared `/v1/…` routes of the DeFi areas whose records carry their pool's
 * info (farms, lending; tables.yaml `routes:`): the key resolver of a path's pool and the record
 * shapers of pool rows and of rows that name a pool. USD values come from `quotes` when given (as
 * the DEX routes), else they are null.
 */
export class PoolRecords<Info> {
  constructor(
    private readonly pools: PoolDirectory<Info>,
    private readonly quotes?: UsdQuotes,
  ) {}

  /** Prices for one answer, read at the time of the request. */
  usd(): UsdPrices {
    return new UsdPrices(this.quotes, new Date());
  }

  /** A path's pool as its rows store it (400 when malformed, 404 when unknown). */
  readonly key: KeyResolver = async (raw) => (await this.pools.require(raw)).address;

  /** Records of pool rows. */
  poolRecords(toRecord: PoolRecord<Info>): RecordShaper {
    return async (rows) => {
      const usd = this.usd();
      return Promise.all([...(await this.pools.withTokens(rows)).values()].map((pool) => toRecord(pool, usd)));
    };
  }

  /** Records of rows that name their pool (events, positions), each with its pool's info. */
  rowRecords(toRecord: RowRecord<Info>): RecordShaper {
    return async (rows) => {
      const pools = await this.pools.infos(rows.map((row) => row.pool!));
      const usd = this.usd();
      return Promise.all(rows.map((row) => toRecord(row, pools.get(row.pool!) ?? this.pools.unknown(row), usd)));
    };
  }
}
