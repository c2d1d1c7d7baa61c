import {
  ApiError,
  ExplorerArgs,
  explorerObject,
  metadataField,
  parseBlockId,
  rightsField,
  RouteRegistry,
} from '../../../framework';
import { BlockLookup } from './BlockLookup';
import { ChainTables } from './ChainTables';
import { awaitsSlashing } from './DelayedSlashings';
import { OperationPages } from './OperationPages';

/**
 * Block object fields in the original service's order, then the keys the TzPro SDK's Block reads
 * (ids, the SDK's names of the toggle votes); all but `successor` and `metadata` are block columns.
 */
const BLOCK_FIELDS = [
  'row_id',
  'hash',
  'predecessor',
  'protocol',
  'baker',
  'proposer',
  'baker_consensus_key',
  'proposer_consensus_key',
  'height',
  'cycle',
  'is_cycle_snapshot',
  'time',
  'solvetime',
  'version',
  'round',
  'nonce',
  'voting_period_kind',
  'n_endorsed_slots',
  'n_ops_applied',
  'n_ops_failed',
  'n_calls',
  'n_rollup_calls',
  'n_tx',
  'n_events',
  'n_tickets',
  'volume',
  'fee',
  'reward',
  'deposit',
  'activated_supply',
  'minted_supply',
  'burned_supply',
  'n_accounts',
  'n_new_accounts',
  'n_new_contracts',
  'n_cleared_accounts',
  'n_funded_accounts',
  'gas_limit',
  'gas_used',
  'storage_paid',
  'pct_account_reuse',
  'lb_esc_vote',
  'lb_esc_ema',
  'lb_vote',
  'lb_ema',
  'ai_vote',
  'ai_ema',
  'baker_id',
  'proposer_id',
  'baker_consensus_key_id',
  'proposer_consensus_key_id',
  'is_orphan',
] as const;

/** `/explorer/block/{head|hash|height}` and the block's operations. */
export class BlockRoutes {
  private readonly rows;
  private readonly successors;

  constructor(
    tables: ChainTables,
    private readonly blocks: BlockLookup,
    private readonly pages: OperationPages,
  ) {
    this.rows = tables.rows('block', BLOCK_FIELDS);
    this.successors = tables.rows('block', ['hash']);
  }

  register(r: RouteRegistry): void {
    explorerObject(
      r,
      '/explorer/block/:id',
      'GetBlock',
      async (ctx) => {
        const args = new ExplorerArgs(ctx.query, ['meta', 'rights']);
        const block = await this.blocks.find(parseBlockId(ctx.params.id), this.rows);
        if (!block) throw ApiError.notFound('no such block');
        // The main-chain block built on this one, else any (an orphan's orphan successor).
        const height = Number(block.height);
        const next = await this.successors.first(
          this.successors
            .query()
            .where({ height: height + 1, predecessor: block.hash })
            .orderBy('is_orphan'),
        );
        const body: Record<string, unknown> = {};
        for (const f of BLOCK_FIELDS) {
          body[f] = block[f];
          if (f === 'predecessor') body.successor = next?.hash ?? null;
        }
        return {
          body: {
            ...body,
            ...metadataField(args.flag('meta'), block.baker, block.proposer),
            ...rightsField(args.flag('rights'), height),
          },
          height,
        };
      },
      { summary: 'a block (hash, height or head)', params: { table: 'block', columns: { id: 'hash' } } },
    );

    explorerObject(
      r,
      '/explorer/block/:id/operations',
      'ListBlockOperations',
      async (ctx) => {
        const block = await this.blocks.ref(parseBlockId(ctx.params.id));
        if (!block) throw ApiError.notFound('no such block');
        // Op rows of orphaned blocks are removed by the rollback: an orphan lists no operations. A
        // main-chain block's are those at its height (the op table's height index).
        const body = await this.pages.list(ctx.query, {
          scopes: [(q) => (block.is_orphan ? q.whereRaw('false') : q.where('height', block.height))],
        });
        return { body, height: awaitsSlashing(body) ? undefined : block.height };
      },
      { summary: 'the operations of a block', params: { table: 'block', columns: { id: 'hash' } } },
    );
  }
}
