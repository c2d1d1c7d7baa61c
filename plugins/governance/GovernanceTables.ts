import type { Catalog, TableDef } from '../../framework';

/** The governance tables, and the core-chain table governance reads (blocks). */
export class GovernanceTables {
  constructor(
    readonly election: TableDef,
    readonly proposal: TableDef,
    readonly vote: TableDef,
    readonly ballot: TableDef,
    readonly voter: TableDef,
    readonly block: TableDef,
  ) {}

  static from(catalog: Catalog): GovernanceTables {
    const table = (code: string): TableDef => catalog.require(code);
    return new GovernanceTables(
      table('election'),
      table('proposal'),
      table('vote'),
      table('ballot'),
      table('voter'),
      table('block'),
    );
  }
}

/** Integers as the drivers hand them back (bigint, number or text). */
export const num = (v: unknown): number => Number(v ?? 0);
