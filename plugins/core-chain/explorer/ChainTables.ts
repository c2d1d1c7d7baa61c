import { Catalog, CatalogRows, Database, ReadOf, TableDef } from '../../../framework';
import { tables as handles } from '../tables.generated';

const CODES = [
  'block',
  'op',
  'account',
  'contract',
  'constant',
  'chain',
  'supply',
  'event',
  'ticket_update',
  'storage',
  'protocol',
  'flow',
] as const;
export type ChainTableCode = (typeof CODES)[number];

/** A row of a core-chain table as read (its generated `…Read` type). */
export type ChainTableRead<C extends ChainTableCode> = ReadOf<(typeof handles)[C]>;

/** The core-chain tables the explorer reads, checked once at start-up. */
export class ChainTables {
  private readonly defs = new Map<ChainTableCode, TableDef>();

  constructor(
    readonly db: Database,
    catalog: Catalog,
  ) {
    for (const code of CODES) this.defs.set(code, catalog.require(code));
  }

  def(code: ChainTableCode): TableDef {
    return this.defs.get(code)!;
  }

  /**
   * A reader of the named columns (default: all) of a table, its rows of the table's generated `…Read`
   * type (what `CatalogRows.of` with the handle of the same code gives).
   */
  rows<C extends ChainTableCode, K extends keyof ChainTableRead<C> & string = keyof ChainTableRead<C> & string>(
    code: C,
    columns?: readonly K[],
  ): CatalogRows<Pick<ChainTableRead<C>, K>> {
    return new CatalogRows(this.db, this.def(code), columns);
  }
}
