import type { Knex } from 'knex';
import { injectable } from 'tsyringe';
import {
  Catalog,
  Database,
  discoverFolders,
  ledgerChecks,
  UndecodableValues,
  type LedgerSpec,
  type PluginContext,
  type PluginContribution,
  type PluginManifest,
  type ReconciliationCheck,
  type RouteRegistry,
  type TzidxPlugin,
} from '../index';
import type { DefiAdapter } from './DefiAdapter';
import { MarketUsdQuotes } from './MarketUsdQuotes';
import { readAheadPositions } from './PositionReadAhead';
import type { UsdQuotes } from './UsdQuotes';

/**
 * An area's recorder: the sink every adapter reports to, the only writer of the area's tables. `has` tells which
 * catalog tables the instance has; `integers` names the sink's calls and the arguments whose integers may exceed the
 * bigint columns (UndecodableValues).
 */
export interface RecorderClass<Sink extends object> {
  new (has: (code: string) => boolean, catalog: Catalog): Sink;
  readonly integers: { readonly [K in keyof Sink]?: readonly number[] };
}

/** The code behind an area's routes, given the USD quotes. */
export type AreaRoutes = (db: Database, catalog: Catalog, quotes: UsdQuotes) => (r: RouteRegistry) => void;

/** What makes a DeFi plugin (DEX, farms, lending) besides its name; defiPlugin makes the plugin's class of it. */
export interface DefiArea<Sink extends object, Adapter extends DefiAdapter<Sink> = DefiAdapter<Sink>> {
  readonly recorder: RecorderClass<Sink>;
  /** The folders of its protocols, one each (`<root>/<protocol>/adapter.ts`), found at load: no list to keep. */
  readonly adapterRoots: readonly string[];
  readonly routes: AreaRoutes;
  /** What `tzidx check defi` holds the tables to; its groups and holdings are the pools and positions read ahead. */
  readonly ledger: LedgerSpec;
  /** More checks, given the protocols found (a check may read what each declares). */
  readonly checks?: readonly ((reader: Knex, catalog: Catalog, adapters: readonly Adapter[]) => ReconciliationCheck)[];
}

/**
 * A DeFi plugin's class, made from its name, description and area: every adapter decodes its protocol's operations
 * and reports them to one recorder; an amount past the bigint columns (a token's unbounded nat) skips that record,
 * counted: never the batch. USD values as the DEX's: tez from the markets plugin, tokens through defi-dex's tez pools
 * (null when either is off). Every area builds on core-chain's blocks and accounts.
 */
export function defiPlugin<Sink extends object, Adapter extends DefiAdapter<Sink> = DefiAdapter<Sink>>(
  name: string,
  description: string,
  area: DefiArea<Sink, Adapter>,
) {
  @injectable()
  class DefiPlugin implements TzidxPlugin {
    static readonly manifest: PluginManifest = {
      name,
      description,
      dependsOn: ['core-chain'],
      contributes: ['handlers', 'routes', 'checks'],
    };

    constructor(
      readonly db: Database,
      readonly catalog: Catalog,
    ) {}

    /** The folders whose protocols the plugin runs (framework `discoverFolders`): a test adds one of its own. */
    adapterRoots(): readonly string[] {
      return area.adapterRoots;
    }

    setup(ctx: PluginContext): PluginContribution {
      const { recorder, routes, ledger, checks = [] } = area;
      const adapters = discoverFolders<Adapter>(this.adapterRoots(), 'adapter');
      const positions = { pools: ledger.groups.table, positions: ledger.holdings.table };
      return {
        handlers: (registry) => {
          const sink = new recorder((code) => this.catalog.table(code) !== undefined, this.catalog);
          // Its counted undecodable values are filed under the plugin's name.
          const guarded = ctx.container.resolve(UndecodableValues).guardIntegers(name, sink, recorder.integers);
          for (const adapter of adapters) adapter.register(registry, guarded);
          registry.blocksStart((blocks, ctx) => readAheadPositions(blocks, ctx, positions));
        },
        routes: (r) => routes(this.db, this.catalog, MarketUsdQuotes.reading(this.db.reader, this.catalog))(r),
        checks: () => [
          ...ledgerChecks(this.db.reader, this.catalog, ledger),
          ...checks.map((check) => check(this.db.reader, this.catalog, adapters)),
        ],
      };
    }
  }
  return DefiPlugin;
}
