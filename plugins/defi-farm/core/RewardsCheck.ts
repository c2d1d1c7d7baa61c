import type { Knex } from 'knex';
import { asRecords, type Catalog, member, type ReconciliationCheck, type Violation } from '../../../framework';

/*
 * Why: a farm can only pay out rewards its schedule has released. On a farm funded through indexed
 * calls (its `update` events moved rewards in), the rewards paid by every other event never exceed
 * what was funded less what the schedule still has to pay (`remaining_rewards` after the last call).
 * Farms funded before the indexed history, or minting their rewards (QFarm), have no funding to hold
 * them to and are not checked.
 */
export function rewardsPaidCheck(db: Knex, catalog: Catalog): ReconciliationCheck {
  const events = catalog.require('farm_event');
  const farms = catalog.require('farm_pool');
  const live = events.orphanColumn ? `and (e.${events.orphanColumn} is null or not e.${events.orphanColumn})` : '';
  return {
    family: 'defi',
    name: 'farm.rewards_paid',
    description: 'on farms funded through indexed calls, rewards paid ≤ rewards funded − remaining_rewards',
    async run(scope): Promise<Violation[]> {
      const update = events.column('event_type')!.type.literal('update');
      const sums = `select e.pool,
          sum(case when e.event_type = ${update} then e.reward else 0 end) as funded,
          sum(case when e.event_type = ${update} then 0 else e.reward end) as paid
        from ${events.schema}.${events.storage} e where true ${live} group by e.pool`;
      const rows = await db.raw(
        `select f.pool, f.update_height, s.funded, s.paid, coalesce(f.remaining_rewards, 0) as remaining
           from ${farms.schema}.${farms.storage} f join (${sums}) s on s.pool = f.pool
          where s.funded > 0 and s.paid > s.funded - coalesce(f.remaining_rewards, 0)
            ${scope.pool === undefined ? '' : 'and f.pool = ?'}
          order by f.pool`,
        scope.pool === undefined ? [] : [scope.pool],
      );
      return asRecords(member(rows, 'rows')).map((r) => ({
        check: 'farm.rewards_paid',
        subject: String(r.pool),
        height: Number(r.update_height),
        detail: `rewards paid ${String(r.paid)} > funded ${String(r.funded)} − remaining ${String(r.remaining)}`,
      }));
    },
  };
}
