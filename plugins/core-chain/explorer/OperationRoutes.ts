import {
  ExplorerArgs,
  explorerObject,
  missingOperation,
  parseOperationId,
  RouteRegistry,
  whereColumnIn,
} from '../../../framework';
import type { OpRead } from '../tables.generated';
import { awaitsSlashing } from './DelayedSlashings';
import { OperationLoader } from './OperationLoader';
import { OPERATION_SWITCHES, operationOptions } from './OperationObject';

/** `/explorer/op/{hash|id}`: every operation of the group (batch contents, internal operations), in block order. */
export class OperationRoutes {
  /**
   * A group's rows by hash (the explorer's hottest lookup), compiled once and read together with the
   * groups concurrent requests ask for. Contract events are not operations of the group (as in the
   * original): each is in the `events` of its emitter.
   */
  private readonly byHash: (hashes: string[]) => Promise<OpRead[]>;

  constructor(private readonly loader: OperationLoader) {
    const ops = loader.ops;
    this.byHash = ops.batched(
      (q, hashes) =>
        q
          .where(ops.anyOf('hash', hashes))
          .whereNot('type', ops.table.column('type')!.type.parse('event'))
          .orderBy([{ column: 'height' }, { column: 'op_n' }]),
      (r) => [r.hash],
      'hash',
    );
  }

  register(r: RouteRegistry): void {
    explorerObject(
      r,
      '/explorer/op/:id',
      'GetOperation',
      async (ctx) => {
        const id = parseOperationId(ctx.params.id);
        const args = new ExplorerArgs(ctx.query, OPERATION_SWITCHES);
        const found = id.kind === 'hash' ? await this.byHash([id.hash]) : await this.byId(id.id);
        if (found.length === 0) throw missingOperation(id);
        const body = await this.loader.objects(found, operationOptions(args));
        return { body, height: awaitsSlashing(body) ? undefined : Number(found[0].height) };
      },
      { summary: 'an operation (hash or id)', params: { table: 'op', columns: { id: 'hash' } } },
    );
  }

  /** The row of an operation id (height and position, packed: its filter is computed from the value). */
  private byId(id: bigint): Promise<OpRead[]> {
    const rows = this.loader.ops;
    return rows.read(whereColumnIn(rows.query(), rows.table.column('id')!, [id.toString()]), { prepare: true });
  }
}
