import {
  ApiError,
  Catalog,
  Database,
  explorerObject,
  parseAddress,
  parseSequenceId,
  RouteRegistry,
  type TableDef,
  asDate,
  bigOrZero,
} from '../../../framework';
import { ChainTables, RightsSnapshotLag } from '../../core-chain';

/** Income columns the SDK's index.Snapshot carries, in mutez like the rest of it. */
const INCOME = [
  'expected_income',
  'total_income',
  'total_deposits',
  'baking_income',
  'endorsing_income',
  'accusation_income',
  'seed_income',
  'fees_income',
  'total_loss',
  'accusation_loss',
  'seed_loss',
  'endorsing_loss',
  'lost_accusation_fees',
  'lost_accusation_rewards',
  'lost_accusation_deposits',
  'lost_seed_fees',
  'lost_seed_rewards',
];

type Raw = Record<string, unknown>;
const int = (v: unknown): bigint | null => (v === null || v === undefined ? null : bigOrZero(v));

/**
 * `/explorer/bakers/{hash}/snapshot/{cycle}` as the SDK's index.Snapshot: the stake snapshot the
 * rights of baking cycle `cycle` were drawn from (the selected snapshot of cycle − lag, SnapshotEra),
 * its funded delegators and the baker's income in that cycle. `head` is the baking cycle of the
 * newest selected snapshot. Amounts are mutez integers (the SDK's int64).
 */
export class SnapshotRoute {
  private readonly snapshot: TableDef;
  private readonly income: TableDef;
  private readonly lags: RightsSnapshotLag;

  constructor(
    private readonly db: Database,
    catalog: Catalog,
  ) {
    this.snapshot = catalog.require('snapshot');
    this.income = catalog.require('income');
    this.lags = new RightsSnapshotLag(new ChainTables(db, catalog));
  }

  register(r: RouteRegistry): void {
    explorerObject(
      r,
      '/explorer/bakers/:hash/snapshot/:cycle',
      'GetBakerSnapshot',
      async (ctx) => {
        const address = parseAddress(ctx.params.hash);
        const asked = parseSequenceId(ctx.params.cycle, 'cycle');
        const { baker, cycle } = await this.selected(address, asked);
        if (!baker || cycle === undefined)
          throw ApiError.notFound(`no snapshot for baker ${address} for cycle ${asked}`);
        const delegators: Raw[] = await this.from(this.snapshot)
          .where({ cycle: baker.cycle, index: baker.index, baker: address, is_baker: false })
          .orderBy([{ column: 'balance', order: 'desc' }, { column: 'address' }])
          .select('address', 'balance');
        const income: Raw =
          (await this.from(this.income)
            .where({ address, cycle })
            .first(...INCOME)) ?? {};
        const ownBalance = int(baker.balance) ?? 0n;
        const delegated = int(baker.delegated) ?? 0n;
        return {
          body: {
            baking_cycle: cycle,
            snapshot_height: Number(baker.height),
            snapshot_cycle: Number(baker.cycle),
            snapshot_time: asDate(baker.time).toISOString(),
            snapshot_index: Number(baker.index),
            snapshot_rolls: Number(baker.rolls ?? 0),
            active_stake: int(baker.active_stake),
            staking_balance: ownBalance + delegated,
            own_balance: ownBalance,
            own_stake: int(baker.own_stake),
            delegated_balance: delegated,
            n_delegations: Number(baker.n_delegations),
            n_stakers: baker.n_stakers === null ? null : Number(baker.n_stakers),
            ...Object.fromEntries(INCOME.map((c) => [c, int(income[c])])),
            delegators: delegators.map((d) => ({
              address: d.address,
              balance: int(d.balance),
              is_funded: (int(d.balance) ?? 0n) > 0n,
            })),
            stakers: null,
          },
        };
      },
      {
        summary: "the stake snapshot behind a baker's rights in a cycle (a number or head)",
        params: { table: 'rights', columns: { hash: 'address', cycle: 'cycle' } },
      },
    );
  }

  /** The baker's selected snapshot row behind a cycle's rights (`head`: the newest) and that cycle. */
  private async selected(address: string, asked: number | 'head'): Promise<{ baker?: Raw; cycle?: number }> {
    const own = this.from(this.snapshot).where({ address, is_baker: true, is_selected: true });
    if (asked === 'head') {
      const baker: Raw | undefined = await own.orderBy('cycle', 'desc').first();
      return { baker, cycle: baker && (await this.lags.rightsCycleOf(Number(baker.cycle))) };
    }
    const lag = await this.lags.of(asked);
    return { baker: lag === undefined ? undefined : await own.where('cycle', asked - lag).first(), cycle: asked };
  }

  private from(t: TableDef) {
    return this.db.reader.withSchema(t.schema).from(t.storage);
  }
}
