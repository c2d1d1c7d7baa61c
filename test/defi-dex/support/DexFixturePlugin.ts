import { HandlerRegistry, PluginManifest, TzidxPlugin } from '../../../framework';
import { tables } from '../../../plugins/defi-dex/tables.generated';
import { DexFixture } from './DexFixture';

/** The fixture the plugin writes; set it before indexing (tests share one per process). */
export const fixtureHolder: { fixture?: DexFixture } = {};

/**
 * TEST ONLY: writes the rows of `fixtureHolder.fixture` into the defi-dex tables (and the metadata
 * plugin's token table when it is enabled) on the sandbox blocks of their heights, through
 * ctx.append and ctx.entities like any indexer, so the API is tested against rows whose every value
 * the test knows.
 */
export class DexFixturePlugin implements TzidxPlugin {
  static readonly manifest: PluginManifest = { name: 'dex-fixture', dependsOn: ['defi-dex'] };

  setup() {
    return { handlers: (r: HandlerRegistry) => this.handlers(r) };
  }
  private handlers(r: HandlerRegistry): void {
    r.onBlock(async (block, ctx) => {
      const f = fixtureHolder.fixture;
      if (!f) return;
      for (const row of f.events) if (row.height === block.level) ctx.append(tables.dex_event, row);
      for (const row of f.trades) if (row.height === block.level) ctx.append(tables.dex_trade, row);
      if (block.level !== f.finalHeight) return;
      const pools = ctx.entities(tables.dex_pool, 'pool');
      for (const row of f.pools) pools.insert(row);
      const positions = ctx.entities(tables.dex_position, 'position');
      for (const row of f.positions) positions.insert(row);
      let tokens;
      try {
        tokens = ctx.entities('token', 'token_key');
      } catch {
        return; // The metadata plugin is not enabled: pools show what their rows know.
      }
      for (const row of f.tokens) tokens.insert(row);
    });
  }
}
