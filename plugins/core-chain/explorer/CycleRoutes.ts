import { ApiError, CycleFigures, explorerObject, parseSequenceId, RouteRegistry } from '../../../framework';
import { BlockLookup } from './BlockLookup';
import { ChainTables } from './ChainTables';
import { CyclePlan, cyclePlan } from './CyclePlan';
import { RightsSnapshotLag } from './RightsSnapshotLag';

type Stats = Record<string, string | null>;

/**
 * Aggregates over a cycle's main-chain blocks, as text (name, SQL); the endorsement ones take the
 * head height three times.
 */
const STATS: readonly (readonly [string, string])[] = [
  ['n_blocks', 'count(*)::text'],
  ['start_height', 'min("height")::text'],
  ['end_height', 'max("height")::text'],
  ['start_time', `to_char(min("time") at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"')`],
  ['end_time', `to_char(max("time") at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"')`],
  ['working_bakers', 'count(distinct "proposer")::text'],
  ['missed_rounds', 'coalesce(sum("round"), 0)::text'],
  ['solvetime_min', 'min("solvetime") filter (where "solvetime" > 0)::text'],
  ['solvetime_max', 'max("solvetime") filter (where "solvetime" > 0)::text'],
  ['solvetime_mean', 'round(avg("solvetime") filter (where "solvetime" > 0), 2)::text'],
  ['round_min', 'min("round")::text'],
  ['round_max', 'max("round")::text'],
  ['round_mean', 'round(avg("round"), 2)::text'],
  ['endorsements_min', 'min("n_endorsed_slots") filter (where "height" < ?)::text'],
  ['endorsements_max', 'max("n_endorsed_slots") filter (where "height" < ?)::text'],
  ['endorsements_mean', 'round(avg("n_endorsed_slots") filter (where "height" < ?), 2)::text'],
];
type CycleBody = Record<string, unknown> & { cycle: number; is_complete: boolean; last_height: number };

/**
 * `/explorer/cycle/{head|number}`: a cycle as seen through its indexed main-chain blocks, the
 * running totals at its last block and its denunciations. Figures that need rights or stake
 * snapshots come from the plugins that keep them (CycleFigures). An open cycle's end, end time and
 * progress are planned from the constants of the protocol its first block ran (CyclePlan).
 */
export class CycleRoutes {
  private readonly chainRows;
  private readonly supplyRows;
  private readonly heights;
  private readonly protocols;
  private readonly constants;
  private readonly lags: RightsSnapshotLag;

  constructor(
    private readonly tables: ChainTables,
    private readonly blocks: BlockLookup,
    private readonly figures: CycleFigures,
  ) {
    this.chainRows = tables.rows('chain', ['active_bakers', 'active_delegators', 'rolls', 'roll_owners']);
    this.supplyRows = tables.rows('supply', ['staking', 'total']);
    this.heights = tables.rows('block', ['height']);
    this.protocols = tables.rows('block', ['protocol']);
    this.constants = tables.rows('protocol', ['constants']);
    this.lags = new RightsSnapshotLag(tables);
  }

  register(r: RouteRegistry): void {
    explorerObject(
      r,
      '/explorer/cycle/:id',
      'GetCycle',
      async (ctx) => {
        const id = parseSequenceId(ctx.params.id, 'cycle');
        const head = await this.blocks.head();
        if (!head) throw ApiError.notFound('no such cycle');
        const cycle = await this.cycle(id === 'head' ? head.cycle : id, head);
        if (!cycle) throw ApiError.notFound('no such cycle');
        // The cycles its rights came from and that its snapshot gives rights to (themselves not nested).
        const { snapshotCycle, follower } = await this.lags.around(cycle.body.cycle);
        const [before, after] = await Promise.all([
          snapshotCycle === undefined ? undefined : this.cycle(snapshotCycle, head),
          follower === undefined ? undefined : this.cycle(follower, head),
        ]);
        const body = {
          ...cycle.body,
          ...(before && { snapshot_cycle: before.body }),
          ...(after && { follower_cycle: after.body }),
        };
        // Fixed once its follower (nested) is complete too, as the original's cache expiry.
        return after?.body.is_complete ? { body, height: after.body.last_height } : { body };
      },
      { summary: 'a cycle', params: { table: 'block', columns: { id: 'cycle' } } },
    );
  }

  /** The cycle object of an indexed cycle; undefined when it has no block. */
  private async cycle(
    cycle: number,
    head: { height: number; time: string; cycle: number },
  ): Promise<{ body: CycleBody } | undefined> {
    if (cycle < 0) return undefined;
    const s = await this.stats(cycle, head.height);
    if (s.n_blocks === '0') return undefined;
    const end = Number(s.end_height);
    const later = await this.heights.first(this.heights.query().where('is_orphan', false).where('cycle', '>', cycle));
    const complete = later !== undefined;
    const start = Number(s.start_height);
    const [totals, supply, doubleBakings, doubleEndorsements, seeds, constants] = await Promise.all([
      this.chainRows.first(this.chainRows.query().where('height', end)),
      this.supplyRows.first(this.supplyRows.query().where('height', end)),
      this.count(['double_baking'], start, end),
      this.count(['double_endorsement', 'double_preendorsement'], start, end),
      this.count(['nonce_revelation'], start, end),
      this.constantsAt(start),
    ]);
    const plan: CyclePlan = cyclePlan(constants, { start, head: head.height, headTime: head.time, complete, seeds });
    const staking = supply?.staking;
    const total = supply?.total;
    const body = {
      cycle,
      start_height: start,
      end_height: complete ? end : plan.end_height,
      start_time: s.start_time,
      end_time: complete ? s.end_time : plan.end_time,
      progress: plan.progress,
      is_complete: complete,
      is_active: cycle === head.cycle,
      n_blocks: Number(s.n_blocks),
      last_height: end,
      rolls: totals?.rolls ?? null,
      roll_owners: totals?.roll_owners ?? null,
      active_delegators: totals?.active_delegators ?? null,
      active_bakers: totals?.active_bakers ?? null,
      staking_supply: staking ?? null,
      staking_percent: staking !== undefined && total ? Number(((staking / total) * 100).toFixed(2)) : null,
      working_bakers: Number(s.working_bakers),
      missed_rounds: Number(s.missed_rounds),
      n_double_baking: doubleBakings,
      n_double_endorsement: doubleEndorsements,
      solvetime_min: num(s.solvetime_min),
      solvetime_max: num(s.solvetime_max),
      solvetime_mean: num(s.solvetime_mean),
      round_min: num(s.round_min),
      round_max: num(s.round_max),
      round_mean: num(s.round_mean),
      endorsements_min: num(s.endorsements_min),
      endorsements_max: num(s.endorsements_max),
      endorsements_mean: num(s.endorsements_mean),
      worst_baked_block: num(s.worst_baked_block),
      worst_endorsed_block: num(s.worst_endorsed_block),
      // Rights and snapshots (the baking plugin): null without it.
      is_snapshot: null,
      snapshot_height: null,
      snapshot_index: null,
      snapshot_time: null,
      working_endorsers: null,
      missed_endorsements: null,
      endorsement_rate: null,
      seed_rate: plan.seed_rate,
      ...(await this.figures.of(cycle, complete)),
    };
    return { body };
  }

  /**
   * Aggregates over the cycle's main-chain blocks. Solvetimes skip blocks whose predecessor is not
   * indexed (0); endorsement counts skip the head, which no block has endorsed yet.
   */
  private async stats(cycle: number, head: number): Promise<Stats> {
    const t = this.tables.def('block');
    const knex = this.tables.db.reader;
    const blocks = () => knex.withSchema(t.schema).from(t.storage).where({ cycle, is_orphan: false });
    const [values = []] = await this.tables.db.selectRows(
      blocks().select(knex.raw(STATS.map(([name, sql]) => `${sql} as ${name}`).join(', '), [head, head, head])),
    );
    const row: Stats = Object.fromEntries(STATS.map(([name], i) => [name, values[i] ?? null]));
    const inCycle = () => this.heights.query().where({ cycle, is_orphan: false });
    const [baked, endorsed] = await Promise.all([
      this.heights.first(inCycle().orderBy([{ column: 'round', order: 'desc' }, { column: 'height' }])),
      this.heights.first(
        inCycle()
          .where('height', '<', head)
          .orderBy([{ column: 'n_endorsed_slots' }, { column: 'height' }]),
      ),
    ]);
    return {
      ...row,
      worst_baked_block: baked ? String(baked.height) : null,
      worst_endorsed_block: endorsed ? String(endorsed.height) : null,
    };
  }

  /** The node's constants of the protocol the cycle's first block ran. */
  private async constantsAt(height: number): Promise<unknown> {
    const block = await this.protocols.first(this.protocols.query().where({ height, is_orphan: false }));
    const row = block
      ? await this.constants.first(this.constants.query().where('protocol', String(block.protocol)).orderBy('height'))
      : undefined;
    return row?.constants;
  }

  private async count(types: string[], from: number, to: number): Promise<number> {
    const t = this.tables.def('op');
    const knex = this.tables.db.reader;
    const [[n] = []] = await this.tables.db.selectRows(
      knex
        .withSchema(t.schema)
        .from(t.storage)
        .whereIn(
          'type',
          types.map((v) => Number(t.column('type')!.type.parse(v))),
        )
        .whereBetween('height', [from, to])
        .select(knex.raw('count(*)::text')),
    );
    return Number(n);
  }
}

function num(v: string | null): number | null {
  return v === null ? null : Number(v);
}
