import { injectable } from 'tsyringe';
import { Catalog, Database, HandlerRegistry, PluginManifest, RouteRegistry, TzidxPlugin } from '../../framework';
import { LENDING_ADAPTERS } from './adapters';
import { LendRoutes } from './api/LendRoutes';
import { LendingRecorder } from './core/LendingRecorder';

/** Lending pools, their events and positions. Its tables are declared in tables.yaml under `defi-lending`. */
@injectable()
export class DefiLendingPlugin implements TzidxPlugin {
  static readonly manifest: PluginManifest = {
    name: 'defi-lending',
    description: 'Lending pools, their events and positions',
    dependsOn: ['core-chain'],
  };

  constructor(
    private readonly db: Database,
    private readonly catalog: Catalog,
  ) {}

  /** Every adapter decodes its protocol's calls and reports them to one recorder. */
  handlers(r: HandlerRegistry): void {
    const recorder = new LendingRecorder();
    for (const adapter of LENDING_ADAPTERS) adapter.register(r, recorder);
  }

  routes(r: RouteRegistry): void {
    new LendRoutes(this.db, this.catalog).register(r);
  }
}
