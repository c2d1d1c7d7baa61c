import { injectable } from 'tsyringe';
import { Catalog, Database, PluginContribution } from '../../../framework';
import { DexRoutes } from '../../../plugins/defi-dex/api/DexRoutes';
import { DefiDexPlugin } from '../../../plugins/defi-dex/plugin';
import { TEST_QUOTES } from './DexOracle';

/**
 * TEST ONLY: the defi-dex plugin with its API over TEST_QUOTES and without its own indexing, so the
 * fixture plugin is the only writer of the DEX tables (the sandbox's pools would add rows the test
 * did not choose).
 */
@injectable()
export class QuotedDexPlugin extends DefiDexPlugin {
  constructor(
    private readonly database: Database,
    private readonly tables: Catalog,
  ) {
    super(database, tables);
  }

  override setup(): PluginContribution {
    return { routes: (r) => new DexRoutes(this.database, this.tables, TEST_QUOTES).register(r) };
  }
}
