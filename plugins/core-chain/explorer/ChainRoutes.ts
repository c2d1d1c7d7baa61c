import {
  ApiError,
  CatalogRows,
  ChainState,
  explorerObject,
  IndexerStatus,
  parseBlockId,
  RouteRegistry,
} from '../../../framework';
import { BlockLookup } from './BlockLookup';
import { ChainTables } from './ChainTables';
import { configConstants } from './ConfigConstants';
import { ProtocolHistory } from './ProtocolHistory';

/** Names of the public networks by chain id; other chains are named by their id. */
const NETWORKS: Record<string, string> = { NetXdQprcVkpaWU: 'mainnet', NetXnHfVqm9iesp: 'ghostnet' };
const DAY_MS = 86_400_000;

type RecentSums = Record<'n_new_accounts' | 'n_cleared_accounts' | 'n_funded_accounts', number>;

interface PeriodFigures {
  headHash: string;
  recent: RecentSums;
  health: number;
  inflation: { amount: number; rate: number } | undefined;
}

/** `/explorer/config/{id}`, `/explorer/tip` and `/explorer/protocols`: what the chain is and where it stands. */
export class ChainRoutes {
  private readonly chainRows;
  private readonly supplyRows;
  private readonly blockTimes;
  private readonly constants;
  private figures?: PeriodFigures;

  constructor(
    private readonly tables: ChainTables,
    private readonly blocks: BlockLookup,
    private readonly protocols: ProtocolHistory,
    private readonly chain: ChainState,
    private readonly status: IndexerStatus,
  ) {
    this.chainRows = tables.rows('chain');
    this.supplyRows = tables.rows('supply');
    this.blockTimes = tables.rows('block', ['time']);
    this.constants = tables.rows('protocol', ['constants']);
  }

  register(r: RouteRegistry): void {
    explorerObject(
      r,
      '/explorer/protocols',
      'ListProtocols',
      async () => {
        const ranges = await this.protocols.ranges();
        return {
          body: ranges.map((p) => ({
            protocol: p.protocol,
            version: p.version,
            deployment: p.version,
            start_height: p.start_height,
            end_height: p.end_height,
          })),
        };
      },
      { summary: 'the protocols of the chain' },
    );

    explorerObject(
      r,
      '/explorer/config/:id',
      'GetConfig',
      async (ctx) => {
        const id = parseBlockId(ctx.params.id);
        const block = await this.blocks.ref(id);
        if (!block) throw ApiError.notFound('no such block');
        const range = await this.protocols.rangeOf(block.protocol, block.height);
        const constants = await this.constants.first(
          this.constants.query().where('protocol', block.protocol).orderBy('height'),
        );
        const body = {
          ...this.identity(),
          deployment: range?.version ?? null,
          version: range?.version ?? null,
          protocol: block.protocol,
          start_height: range?.start_height ?? null,
          end_height: range?.end_height ?? null,
          decimals: 6,
          ...configConstants(constants?.constants),
        };
        // The head's protocol has no end yet: its config changes when the next protocol starts.
        return range && range.end_height !== -1 ? { body, height: block.height } : { body };
      },
      { summary: 'the protocol constants at a block', params: { table: 'block', columns: { id: 'height' } } },
    );

    explorerObject(
      r,
      '/explorer/tip',
      'GetTip',
      async () => {
        const head = await this.blocks.head();
        if (!head) throw ApiError.notFound('no block indexed yet');
        const atHead = <R extends object>(rows: CatalogRows<R>) =>
          rows.first(rows.query().where('height', head.height).orderBy('row_id', 'desc'));
        const [totals, supply, genesis] = await Promise.all([
          atHead(this.chainRows),
          atHead(this.supplyRows),
          this.blockTimes.first(this.blockTimes.query().where({ height: 0, is_orphan: false })),
        ]);
        const { recent, inflation, health } = await this.periodFigures(head.hash, Date.parse(head.time), supply?.total);
        const body = {
          ...this.identity(),
          genesis_time: genesis?.time ?? null,
          block_hash: head.hash,
          timestamp: head.time,
          height: head.height,
          cycle: head.cycle,
          protocol: head.protocol,
          total_accounts: totals?.total_accounts ?? null,
          total_contracts: totals?.total_contracts ?? null,
          total_rollups: totals?.total_rollups ?? null,
          funded_accounts: totals?.funded_accounts ?? null,
          dust_accounts: totals?.dust_accounts ?? null,
          dust_delegators: totals?.dust_delegators ?? null,
          total_ops: totals?.total_ops ?? null,
          delegators: totals?.total_delegators ?? null,
          bakers: totals?.total_bakers ?? null,
          rolls: totals?.rolls ?? 0,
          roll_owners: totals?.roll_owners ?? 0,
          new_accounts_30d: recent.n_new_accounts,
          cleared_accounts_30d: recent.n_cleared_accounts,
          funded_accounts_30d: recent.n_funded_accounts,
          inflation_1y: inflation?.amount ?? null,
          inflation_rate_1y: inflation?.rate ?? null,
          health,
          supply: supply ?? null,
          status: this.status.toJSON(),
        };
        return { body };
      },
      { summary: 'the chain tip' },
    );
  }

  private identity(): Record<string, unknown> {
    const chainId = this.chain.networkId ?? null;
    return {
      name: 'Tezos',
      network: chainId === null ? null : (NETWORKS[chainId] ?? chainId),
      symbol: 'XTZ',
      chain_id: chainId,
    };
  }

  /**
   * The 30-day account figures and the 1-year inflation: sums over many blocks, computed once per
   * head block (the tip is asked for far more often than blocks arrive).
   */
  private async periodFigures(headHash: string, headTime: number, total: number | undefined): Promise<PeriodFigures> {
    if (this.figures?.headHash === headHash) return this.figures;
    const figures = {
      headHash,
      recent: await this.recentSums(new Date(headTime - 30 * DAY_MS)),
      health: await this.health(),
      inflation: await this.inflation(total, new Date(headTime - 365 * DAY_MS)),
    };
    this.figures = figures;
    return figures;
  }

  /** Accounts created, cleared and funded by the main-chain blocks since a time. */
  private async recentSums(since: Date): Promise<RecentSums> {
    const t = this.tables.def('block');
    const knex = this.tables.db.reader;
    const [[created, cleared, funded] = []] = await this.tables.db.selectRows(
      knex
        .withSchema(t.schema)
        .from(t.storage)
        .where('is_orphan', false)
        .where('time', '>', since)
        .select(
          knex.raw(
            'coalesce(sum("n_new_accounts"), 0)::text, coalesce(sum("n_cleared_accounts"), 0)::text, coalesce(sum("n_funded_accounts"), 0)::text',
          ),
        ),
    );
    return { n_new_accounts: Number(created), n_cleared_accounts: Number(cleared), n_funded_accounts: Number(funded) };
  }

  /**
   * Chain health 0…100: the share of the last 64 main-chain blocks baked in their first round (a
   * missed round means a baker was offline). The original's score weighs more signals; see docs.
   */
  private async health(): Promise<number> {
    const t = this.tables.def('block');
    const knex = this.tables.db.reader;
    const recent = knex
      .withSchema(t.schema)
      .from(t.storage)
      .where('is_orphan', false)
      .orderBy('height', 'desc')
      .limit(64)
      .select('round');
    const [[n, first] = []] = await this.tables.db.selectRows(
      knex.from(recent.as('r')).select(knex.raw('count(*)::text, count(*) filter (where "round" = 0)::text')),
    );
    return Number(n) === 0 ? 0 : Math.round((100 * Number(first)) / Number(n));
  }

  /** Supply growth over the last year (tez and percent), when a supply row of a year ago is indexed. */
  private async inflation(
    total: number | undefined,
    yearAgo: Date,
  ): Promise<{ amount: number; rate: number } | undefined> {
    if (total === undefined) return undefined;
    const then = await this.supplyRows.first(
      this.supplyRows.query().where('time', '<=', yearAgo).orderBy('time', 'desc'),
    );
    const before = then?.total;
    if (before === undefined || before <= 0) return undefined;
    const amount = Number((total - before).toFixed(6));
    return { amount, rate: Number((((total - before) / before) * 100).toFixed(6)) };
  }
}
