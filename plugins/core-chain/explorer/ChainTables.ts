import { Catalog, CatalogRows, Database, TableDef } from '../../../framework';

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

  /** A reader of the named columns (default: all) of a table. */
  rows(code: ChainTableCode, columns?: readonly string[]): CatalogRows {
    return new CatalogRows(this.db, this.def(code), columns);
  }
}
