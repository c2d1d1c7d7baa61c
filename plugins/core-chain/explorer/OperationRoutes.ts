import { ApiError, ExplorerArgs, explorerObject, parseOperationId, RouteRegistry, whereColumnIn } from '../../../framework';
import { OperationLoader } from './OperationLoader';
import { OPERATION_SWITCHES, operationOptions } from './OperationObject';

/** `/explorer/op/{hash|id}`: every operation of the group (batch contents, internal operations), in block order. */
export class OperationRoutes {
  constructor(private readonly loader: OperationLoader) {}

  register(r: RouteRegistry): void {
    explorerObject(r, '/explorer/op/:id', 'GetOperation', async (ctx) => {
      const id = parseOperationId(ctx.params.id);
      const args = new ExplorerArgs(ctx.query, OPERATION_SWITCHES);
      const rows = this.loader.ops;
      const q = rows.query().orderBy([{ column: 'height' }, { column: 'op_n' }]);
      // Contract events are not operations of the group (as in the original): each is in the `events` of its emitter.
      if (id.kind === 'hash') q.where('hash', id.hash).whereNot('type', 'event');
      else whereColumnIn(q, rows.table.column('id')!, [id.id.toString()]);
      const found = await rows.read(q, { prepare: true });
      if (found.length === 0) throw ApiError.notFound('no such operation');
      return { body: await this.loader.objects(found, operationOptions(args)), height: found[0].height as number };
    }, { summary: 'an operation (hash or id)', params: { table: 'op', columns: { id: 'hash' } } });
  }
}
