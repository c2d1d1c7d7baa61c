import type { Knex } from 'knex';
import { applyFilters } from '../query/TableQueryEngine';
import type { TableRequest } from '../query/TableRequest';

/**
 * A parsed list request applied to a query: its column filters, then the page: `cursor` (the last
 * row_id seen) in the list's order, order by row_id, `limit`, `offset`.
 */
export function applyListRequest(
  q: Knex.QueryBuilder,
  request: TableRequest,
  order: 'asc' | 'desc' = request.order,
): Knex.QueryBuilder {
  applyFilters(q, request.filters);
  if (request.cursor !== undefined) q.whereRaw(`"row_id" ${order === 'asc' ? '>' : '<'} ?`, [request.cursor]);
  q.orderBy('row_id', order).limit(request.limit);
  if (request.offset > 0) q.offset(request.offset);
  return q;
}
