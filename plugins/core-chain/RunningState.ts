import { bigOrZero, type TableDef, type TableReader } from '../../framework';
import { ChainTotals } from './ChainTotals';
import { storedDate } from './storedDate';
import { SupplyLedger } from './SupplyLedger';

/** The catalog tables core-chain reads back from the database. */
export interface CoreTables {
  block: TableDef;
  chain: TableDef;
  supply: TableDef;
  account: TableDef;
  op: TableDef;
  constant: TableDef;
  protocol: TableDef;
}

function previousBlock(
  read: TableReader,
  t: TableDef,
  hash: string,
): Promise<{ time?: unknown; row_id?: unknown } | undefined> {
  const q = read(t).where({ hash });
  if (t.orphanColumn) q.where(t.orphanColumn, false);
  return q.first('time', 'row_id');
}

/**
 * What core-chain carries from one block to the next: running chain and supply totals and the
 * previous block's time and row id. It lives in memory while blocks follow each other and is read
 * back from the tables whenever the next block does not continue the one it was built for (start,
 * gap, rollback).
 */
export class RunningState {
  constructor(
    readonly chain: ChainTotals,
    readonly supply: SupplyLedger,
    /** Hash of the block this state is the end of. */
    public hash: string | undefined,
    /** Time of that block (for the next block's solvetime). */
    public time: Date | undefined,
    /** Row id of that block (the next block's `parent_id`); undefined when no main-chain row has it. */
    public blockId: bigint | undefined,
  ) {}

  /** Rebuilds the state for a block whose predecessor is `predecessor` from the last stored rows. */
  static async load(read: TableReader, tables: CoreTables, predecessor: string): Promise<RunningState> {
    const last = (t: TableDef) => read(t).orderBy('row_id', 'desc').first();
    // One after the other: the queries share the transaction's connection.
    const chainRow = await last(tables.chain);
    const supplyRow = await last(tables.supply);
    const previous = predecessor === '' ? undefined : await previousBlock(read, tables.block, predecessor);
    const delegators = await read(tables.account)
      .where({ is_delegated: true, is_funded: true })
      .whereNotNull('baker_id')
      .groupBy('baker_id')
      .select('baker_id')
      .count({ n: '*' });
    const perBaker = new Map<bigint, number>(
      delegators.map((d: Record<string, unknown>) => [bigOrZero(d.baker_id), Number(d.n)]),
    );
    return new RunningState(
      chainRow ? ChainTotals.fromRow(chainRow, perBaker) : new ChainTotals(perBaker),
      supplyRow ? SupplyLedger.fromRow(supplyRow) : new SupplyLedger(),
      predecessor,
      previous?.time === undefined ? undefined : storedDate(previous.time),
      previous?.row_id === undefined ? undefined : bigOrZero(previous.row_id),
    );
  }
}
